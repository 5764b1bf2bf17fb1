#!/usr/bin/env python3
"""Build wheels of consensus-crowd that bundle the consensus binary.

A wheel built here holds the Python package (python/consensus_crowd) and,
as consensus_crowd/bin/consensus (consensus.exe on Windows), the program
built from this checkout for one platform, so that ``pip install`` of the
wheel is all a Python user needs: no Go on the machine that installs it.
``find_binary`` takes the bundled program when neither ``binary=`` nor
CONSENSUS_BIN names another.

    python3 python/build_wheels.py                      # this machine's platform, into dist/
    python3 python/build_wheels.py --platform all       # the six platforms below
    python3 python/build_wheels.py --platform linux-arm64 --out /tmp/wheels

The program is cross-compiled by Go (CGO_ENABLED=0: a static executable
that needs no C library, so one Linux wheel serves glibc and musl
distributions), with -trimpath and its version set to the package's, so
the same checkout and Go toolchain give byte-identical wheels: the zip
entries are sorted and dated 1980-01-01 (the earliest date a zip holds).
Needs Go and Python 3.9 or later on the machine that builds; the wheels
install on Python 3.9 or later. Prints the path of every wheel it writes,
one a line, and its progress (each platform's compile and wheel) on
standard error.

This file is also the package's build backend (PEP 517 and PEP 660,
pyproject.toml's build-system), so that ``pip install ./python`` needs
nothing from the network: it builds a pure-Python wheel, without the
program, from the standard library alone (the program then comes from
``binary=``, CONSENSUS_BIN or PATH; see docs/python.md).
"""

import argparse
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PACKAGE = "consensus_crowd"

# Go's GOOS-GOARCH and the wheel platform tags of each (PEP 425, PEP 600,
# PEP 656). Go 1.26's darwin binaries require macOS 12 (the minimum OS
# version the linker writes into them).
PLATFORMS = {
    "linux-amd64": ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "musllinux_1_1_x86_64"],
    "linux-arm64": ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"],
    "darwin-amd64": ["macosx_12_0_x86_64"],
    "darwin-arm64": ["macosx_12_0_arm64"],
    "windows-amd64": ["win_amd64"],
    "windows-arm64": ["win_arm64"],
}

# The date of every zip entry: the earliest a zip can hold, so that a
# rebuild gives the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--platform", action="append", metavar="NAME",
                    help="GOOS-GOARCH to build for, repeatable: %s, host (this machine's, the default) or all"
                    % ", ".join(PLATFORMS))
    ap.add_argument("--out", default=os.path.join(REPO, "dist"), help="directory of the wheels (default: dist/)")
    ap.add_argument("--go", default=None, help="the go command (default: go on PATH, else /usr/local/go/bin/go)")
    args = ap.parse_args(argv)
    go = args.go or shutil.which("go") or "/usr/local/go/bin/go"
    try:
        names = platforms(args.platform or ["host"], go)
    except ValueError as e:
        ap.error(str(e))
    meta = project()
    os.makedirs(args.out, exist_ok=True)
    start = time.monotonic()
    for i, name in enumerate(names):
        progress("[%d/%d] %s: compiling the program (go build)" % (i + 1, len(names), name))
        path = build(name, meta, go, args.out)
        progress("[%d/%d] %s: wrote %s (%.1f MB), %.0f s so far"
                 % (i + 1, len(names), name, path, os.path.getsize(path) / 1e6, time.monotonic() - start))
        print(path, flush=True)


def progress(line):
    """Print a progress line on standard error."""
    print("build_wheels: " + line, file=sys.stderr, flush=True)


def platforms(asked, go):
    """Return the platform names that asked (names, "host", "all") means."""
    out = []
    for a in asked:
        if a == "all":
            names = list(PLATFORMS)
        elif a == "host":
            env = subprocess.run([go, "env", "GOHOSTOS", "GOHOSTARCH"], check=True, stdout=subprocess.PIPE,
                                 text=True).stdout.split()
            names = ["-".join(env)]
            if names[0] not in PLATFORMS:
                raise ValueError("this machine is %s, for which no wheel is defined (%s)"
                                 % (names[0], ", ".join(PLATFORMS)))
        elif a in PLATFORMS:
            names = [a]
        else:
            raise ValueError("--platform %s: want one of %s, host or all" % (a, ", ".join(PLATFORMS)))
        out += [n for n in names if n not in out]
    return out


def project():
    """Return python/pyproject.toml's [project] table, checked against the
    package's __version__."""
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        text = f.read()
    try:
        import tomllib
        meta = tomllib.loads(text.decode("utf-8"))["project"]
    except ImportError:  # Python before 3.11: the subset of TOML that pyproject.toml uses
        meta = simple_toml(text.decode("utf-8"))["project"]
    with open(os.path.join(HERE, PACKAGE, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M)
    if not m or m.group(1) != meta["version"]:
        sys.exit("build_wheels: %s.__version__ (%s) is not pyproject.toml's version %s"
                 % (PACKAGE, m and m.group(1), meta["version"]))
    return meta


def build(name, meta, go, out):
    """Build the program for platform name and write its wheel into out;
    return the wheel's path."""
    goos, goarch = name.split("-")
    exe = "consensus.exe" if goos == "windows" else "consensus"
    version = meta["version"]
    with tempfile.TemporaryDirectory(prefix="consensus-wheel-") as tmp:
        binary = os.path.join(tmp, exe)
        env = dict(os.environ, GOOS=goos, GOARCH=goarch, CGO_ENABLED="0")
        subprocess.run([go, "build", "-trimpath", "-buildvcs=false",
                        "-ldflags=-s -w -buildid= -X main.version=" + version,
                        "-o", binary, "./cmd/consensus"], cwd=REPO, env=env, check=True)
        with open(binary, "rb") as f:
            program = f.read()
    files = package_files()
    files.append((PACKAGE + "/bin/" + exe, program, 0o755))
    dist = "%s-%s" % (PACKAGE, version)
    info = dist + ".dist-info/"
    tags = PLATFORMS[name]
    files.append((info + "METADATA", metadata(meta).encode(), 0o644))
    files.append((info + "WHEEL", wheel_file(tags).encode(), 0o644))
    path = os.path.join(out, "%s-py3-none-%s.whl" % (dist, ".".join(tags)))
    write_wheel(path, files, info + "RECORD")
    return path


def package_files():
    """Return (archive name, bytes, mode) of every file of the package,
    without compiled bytecode."""
    root = os.path.join(HERE, PACKAGE)
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "bin"))
        for fn in sorted(filenames):
            if fn.endswith((".pyc", ".pyo")):
                continue
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, HERE).replace(os.sep, "/")
            with open(full, "rb") as f:
                files.append((rel, f.read(), 0o644))
    return files


def metadata(meta):
    """Return the METADATA file (core metadata 2.1) of the [project] table meta."""
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + meta["name"],
        "Version: " + meta["version"],
        "Summary: " + meta["description"],
        "Requires-Python: " + meta["requires-python"],
    ]
    for label, url in meta.get("urls", {}).items():
        lines.append("Project-URL: %s, %s" % (label, url))
    for dep in meta.get("dependencies", []):
        lines.append("Requires-Dist: " + dep)
    for extra, deps in meta.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: " + extra)
        for dep in deps:
            lines.append('Requires-Dist: %s; extra == "%s"' % (dep, extra))
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(HERE, meta["readme"]), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join(lines) + "\n\n" + readme


def wheel_file(tags):
    """Return the WHEEL file for the platform tags: not pure Python."""
    lines = ["Wheel-Version: 1.0", "Generator: consensus build_wheels.py", "Root-Is-Purelib: false"]
    lines += ["Tag: py3-none-" + t for t in tags]
    return "\n".join(lines) + "\n"


def write_wheel(path, files, record):
    """Write files (archive name, bytes, mode) and their RECORD (PEP 376:
    name, sha256 in URL-safe base64 without padding, size) to the zip at
    path, with fixed dates, through a temporary file, so that an
    interrupted build leaves no partial wheel. The package's files come
    first in sorted order, then the .dist-info directory's, RECORD last, as
    PEP 427 recommends."""
    info = record.rsplit("/", 1)[0] + "/"
    files = sorted(files, key=lambda f: (f[0].startswith(info), f[0]))
    rows = []
    for name, data, _ in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append("%s,sha256=%s,%d" % (name, digest, len(data)))
    rows.append(record + ",,")
    files.append((record, ("\n".join(rows) + "\n").encode(), 0o644))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            zi = zipfile.ZipInfo(name, ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = (0o100000 | mode) << 16  # a regular file and its permissions
            zi.create_system = 3  # Unix, so that installers read the permissions
            z.writestr(zi, data)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf.getvalue())
    os.replace(tmp, path)


def simple_toml(text):
    """Parse the TOML subset of pyproject.toml: [table] and [a.b] headers,
    key = "string", key = ["string", ...] on one line, comments."""
    root, table = {}, None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            table = root
            for part in line.strip("[]").split("."):
                table = table.setdefault(part.strip(), {})
            continue
        key, sep, value = line.partition("=")
        if not sep or table is None:
            raise ValueError("pyproject.toml:%d: not a key = value line: %s" % (n, line))
        value = value.strip()
        if value.startswith("["):
            table[key.strip()] = re.findall(r'"([^"]*)"', value)
        elif value.startswith('"') and value.endswith('"'):
            table[key.strip()] = value[1:-1]
        else:
            raise ValueError("pyproject.toml:%d: unsupported value %s" % (n, value))
    return root


# The PEP 517 and PEP 660 hooks: pip install ./python (and pip install -e)
# build here, from the standard library alone.

def get_requires_for_build_wheel(config_settings=None):
    """Nothing: the backend needs only the standard library."""
    return []


get_requires_for_build_sdist = get_requires_for_build_editable = get_requires_for_build_wheel


def _dist_info(meta, tag):
    info = "%s-%s.dist-info/" % (PACKAGE, meta["version"])
    wheel = "Wheel-Version: 1.0\nGenerator: consensus build_wheels.py\nRoot-Is-Purelib: true\nTag: %s\n" % tag
    return info, [(info + "METADATA", metadata(meta).encode(), 0o644), (info + "WHEEL", wheel.encode(), 0o644)]


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Write the pure-Python wheel (the package without the program) into
    wheel_directory and return its file name."""
    meta = project()
    info, files = _dist_info(meta, "py3-none-any")
    name = "%s-%s-py3-none-any.whl" % (PACKAGE, meta["version"])
    write_wheel(os.path.join(wheel_directory, name), package_files() + files, info + "RECORD")
    return name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """Write an editable wheel: a .pth file that puts python/ on sys.path."""
    meta = project()
    info, files = _dist_info(meta, "py3-none-any")
    name = "%s-%s-py3-none-any.whl" % (PACKAGE, meta["version"])
    files.append(("__editable__.%s.pth" % PACKAGE, (HERE + "\n").encode(), 0o644))
    write_wheel(os.path.join(wheel_directory, name), files, info + "RECORD")
    return name


def build_sdist(sdist_directory, config_settings=None):
    """Write the source distribution (pyproject.toml, README.md, this file
    and the package) into sdist_directory and return its file name."""
    meta = project()
    base = "%s-%s" % (PACKAGE, meta["version"])
    name = base + ".tar.gz"
    members = [("pyproject.toml", None), ("README.md", None), ("build_wheels.py", None)]
    members += [(rel, data) for rel, data, _ in package_files()]
    pkg_info = metadata(meta).encode()
    tmp = os.path.join(sdist_directory, name + ".tmp")
    with tarfile.open(tmp, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel, data in members + [("PKG-INFO", pkg_info)]:
            if data is None:
                with open(os.path.join(HERE, rel), "rb") as f:
                    data = f.read()
            ti = tarfile.TarInfo(base + "/" + rel)
            ti.size, ti.mode, ti.mtime = len(data), 0o644, 315532800
            tar.addfile(ti, io.BytesIO(data))
    os.replace(tmp, os.path.join(sdist_directory, name))
    return name


if __name__ == "__main__":
    main()
