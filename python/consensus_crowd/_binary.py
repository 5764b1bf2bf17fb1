"""Finding the ``consensus`` executable."""

import os
import shutil

__all__ = ["find_binary", "BinaryNotFoundError"]

INSTALL_ADVICE = (
    "install a wheel of consensus-crowd built for this platform (python/build_wheels.py), which bundles it, or "
    "install it with `go install github.com/consensuslab/consensus/cmd/consensus@latest` "
    "(the binary goes to $(go env GOPATH)/bin, which must be on PATH), or run "
    "`go build ./cmd/consensus` in a checkout and pass binary=PATH or set CONSENSUS_BIN=PATH"
)


class BinaryNotFoundError(FileNotFoundError):
    """The ``consensus`` executable could not be found."""


def find_binary(binary=None):
    """Return the path of the ``consensus`` executable.

    The first of these that is given wins: the ``binary`` argument, the
    environment variable ``CONSENSUS_BIN``, the program bundled in the
    package (``consensus_crowd/bin/consensus``, or ``consensus.exe`` on
    Windows, which a wheel built by python/build_wheels.py holds), and
    ``consensus`` on ``PATH``. A path that is given but is not an
    executable file is an error; it is not skipped in favour of the next
    source.

    Raises:
        BinaryNotFoundError: no executable was found; the message says how
            to get one.
    """
    if binary is not None:
        return _check(os.fspath(binary), "binary= argument")
    env = os.environ.get("CONSENSUS_BIN")
    if env:
        return _check(env, "CONSENSUS_BIN")
    bundled = bundled_path()
    if os.path.isfile(bundled):
        return _executable(bundled)
    found = shutil.which("consensus")
    if found:
        return found
    raise BinaryNotFoundError(
        "the consensus executable is not on PATH, no program is bundled in the package and neither binary= nor "
        "CONSENSUS_BIN is set: " + INSTALL_ADVICE
    )


def bundled_path():
    """Return where a wheel puts the bundled program: bin/consensus (or
    bin/consensus.exe on Windows) inside the package. The file need not
    exist."""
    exe = "consensus.exe" if os.name == "nt" else "consensus"
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", exe)


def _executable(path):
    # An installer that unpacks the wheel without its permissions leaves
    # the bundled program without its executable bits: they are set again
    # when the file is ours to change.
    if not os.access(path, os.X_OK):
        try:
            os.chmod(path, os.stat(path).st_mode | 0o111)
        except OSError:
            pass
    if os.access(path, os.X_OK):
        return path
    raise BinaryNotFoundError(
        "the program bundled in the package, %r, is not executable and its permissions cannot be set: "
        "reinstall the wheel, or pass binary=PATH or set CONSENSUS_BIN=PATH" % path
    )


def _check(path, source):
    # A bare name such as "consensus" is looked up on PATH, as a shell would.
    resolved = path if os.sep in path else (shutil.which(path) or path)
    if os.path.isfile(resolved) and os.access(resolved, os.X_OK):
        return resolved
    raise BinaryNotFoundError(
        "%s names %r, which is not an executable file: %s" % (source, path, INSTALL_ADVICE)
    )
