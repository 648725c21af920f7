# syntax=docker/dockerfile:1
# Build: a Swift 6 toolchain with librabbitmq-dev, the same Debian packages scripts/test installs for the build.
FROM swift:6.1-bookworm AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends librabbitmq-dev libsqlite3-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# SwiftPM loads every target the manifest names, so the test folders must be there though only responder is built.
COPY Tests ./Tests
RUN swift build -c release --product responder --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/responder" /responder

# Run: a slim Debian with only the runtime libraries, as a non-root user. libcurl4 is what Foundation's URLSession
# runs on, for `responder health`, the health check.
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends librabbitmq4 libsqlite3-0 libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /var/lib/responder --create-home responder
COPY --from=build /responder /usr/local/bin/responder
USER responder
WORKDIR /var/lib/responder
ENV RESPONDER_STATE=/var/lib/responder/state.sqlite \
    RESPONDER_METRICS_PORT=9090
EXPOSE 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["responder", "health", "--port", "9090"]
ENTRYPOINT ["responder"]
CMD ["run"]
