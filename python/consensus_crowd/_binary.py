"""Finding the ``consensus`` executable."""

import os
import shutil

__all__ = ["find_binary", "BinaryNotFoundError"]

INSTALL_ADVICE = (
    "install it with `go install github.com/consensuslab/consensus/cmd/consensus@latest` "
    "(the binary goes to $(go env GOPATH)/bin, which must be on PATH), or run "
    "`go build ./cmd/consensus` in a checkout and pass binary=PATH or set CONSENSUS_BIN=PATH"
)


class BinaryNotFoundError(FileNotFoundError):
    """The ``consensus`` executable could not be found."""


def find_binary(binary=None):
    """Return the path of the ``consensus`` executable.

    The first of these that is given wins: the ``binary`` argument, the
    environment variable ``CONSENSUS_BIN``, and ``consensus`` on ``PATH``.
    A path that is given but is not an executable file is an error; it is
    not skipped in favour of the next source.

    Raises:
        BinaryNotFoundError: no executable was found; the message says how
            to get one.
    """
    if binary is not None:
        return _check(os.fspath(binary), "binary= argument")
    env = os.environ.get("CONSENSUS_BIN")
    if env:
        return _check(env, "CONSENSUS_BIN")
    found = shutil.which("consensus")
    if found:
        return found
    raise BinaryNotFoundError(
        "the consensus executable is not on PATH and neither binary= nor CONSENSUS_BIN is set: "
        + INSTALL_ADVICE
    )


def _check(path, source):
    # A bare name such as "consensus" is looked up on PATH, as a shell would.
    resolved = path if os.sep in path else (shutil.which(path) or path)
    if os.path.isfile(resolved) and os.access(resolved, os.X_OK):
        return resolved
    raise BinaryNotFoundError(
        "%s names %r, which is not an executable file: %s" % (source, path, INSTALL_ADVICE)
    )
