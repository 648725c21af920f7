"""The responder's release build for the bench: the image's own command (the Dockerfile's), in the scratch folder
scripts/test builds it in too. Apart from the rest of the harness, which needs aio-pika, so the suite can run it with
the system's Python (BenchBuildTests)."""
import shutil
import subprocess
import sys

RELEASE_SCRATCH = ".build-release"


def release_build_command(repo):
    """The image's release build, as the Dockerfile runs it, in the scratch folder scripts/test builds it in too:
    the bench measures the binary that ships, and reuses the test suite's build of it."""
    for line in (repo / "Dockerfile").read_text().splitlines():
        if line.startswith("RUN swift build -c release "):
            return line[len("RUN "):].split("&&")[0].rstrip(" \\").split() + ["--scratch-path", RELEASE_SCRATCH]
    return None


def checkout_revision(repo, revision, build):
    """A git worktree of `revision` under `build` (`scripts/bench --baseline`), made once and reused: its own
    release build stays warm between runs. Returns its folder and the revision's short commit."""
    resolved = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "--verify", "--quiet",
                               f"{revision}^{{commit}}"], capture_output=True, text=True)
    if resolved.returncode != 0:
        sys.exit(f"bench: --baseline: {revision} names no commit in {repo}")
    commit = resolved.stdout.strip()
    folder = build / f"baseline-{commit}"
    if not folder.exists():
        added = subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", str(folder.resolve()), commit],
                               capture_output=True, text=True)
        if added.returncode != 0:
            sys.exit(f"bench: --baseline: git worktree add failed: {added.stderr.strip()}")
    return folder, commit


def build_responder(repo, log_dir, log_name="swift-build.log"):
    """Builds `responder` in release mode when this checkout has it. A failed build (or no toolchain) ends the bench
    with an error: rows of the other variants alone would read as a complete run."""
    command = release_build_command(repo) if (repo / "Dockerfile").exists() else None
    if "ResponderTool" not in (repo / "Package.swift").read_text() or command is None:
        return
    if shutil.which("swift") is None:
        sys.exit("bench: no swift toolchain here, so the responder cannot be built")
    print(f"bench: building responder in {repo} ({' '.join(command)})", file=sys.stderr)
    with open(log_dir / log_name, "wb") as log:
        built = subprocess.run(command, cwd=repo, stdout=log, stderr=subprocess.STDOUT)
    if built.returncode != 0:
        sys.exit(f"bench: the responder build failed, see {log_dir / log_name}")
