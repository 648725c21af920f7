# syntax=docker/dockerfile:1
# Base images are pinned to version tags; the Deploying article (ResponderWorker.docc) says how to pin them by digest as well.

# Build: the Swift release the project is built and tested with (ImageToolchainTests holds it to every manifest
# the build loads), with librabbitmq-dev and libsqlite3-dev, the Debian packages scripts/test installs for the build.
FROM swift:6.3.1-bookworm AS build
# Debian stable's archive keeps only the newest build of each package, so a pinned version would break the build
# at its next security update; the base image's release pins the versions closely enough.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends librabbitmq-dev libsqlite3-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies resolve from Package.swift's from: versions, the newest release within each major version at build
# time: Package.resolved is not in git (a checkout's pins may name revisions only its own machine has). For the same
# dependencies every build, copy a Package.resolved of your own and add --force-resolved-versions to swift build.
COPY Package.swift ./
COPY Sources ./Sources
# SwiftPM loads every target the manifest names, so the test folders must be there though only responder is built.
COPY Tests ./Tests
RUN swift build -c release --product responder --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/responder" /responder

# Run: a slim Debian with the libraries the binary links (ImageLibrariesTests checks them against ldd) and the CA
# bundle amqps:// verifies brokers with, as the non-root user 10001 (numeric, so Kubernetes' runAsNonRoot can
# check it). libcurl4 is what Foundation's URLSession runs on, for `responder health`, the health check.
FROM debian:12.11-slim
# As in the build stage: the archive keeps only the newest build of each package.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends librabbitmq4 libsqlite3-0 libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 responder \
    && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/responder --create-home responder
COPY --from=build /responder /usr/local/bin/responder
USER 10001:10001
WORKDIR /var/lib/responder
# No RESPONDER_STATE here: a pod of the fleet would inherit it. The default state file is responder-state.sqlite in
# this working directory; compose and the single Kubernetes worker name theirs on their volume.
ENV RESPONDER_METRICS_PORT=9090
# Log lines carry a local timestamp; without TZ, glibc re-reads /etc/localtime for every line (Benchmarks/PROFILE.md
# measured 4.6% of the worker's CPU on RedGreen's logging).
ENV TZ=UTC
EXPOSE 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["responder", "health", "--metrics-port", "9090"]
ENTRYPOINT ["responder"]
CMD ["run"]
