"""Tests of python/build_wheels.py: the wheel of this machine's platform
holds the package and the program, its RECORD is right, pip installs it,
the installed package finds and runs the bundled program with nothing on
PATH, and a rebuild gives the same bytes.

The wheel is built with the go command (skipped without it) and Python 3.11
or later (skipped on older ones). pip install ./python, whose build backend
is build_wheels.py, is checked offline.
"""

import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.path.dirname(HERE)
BUILD = os.path.join(PYTHON, "build_wheels.py")

_wheels = {}


def go():
    return shutil.which("go") or ("/usr/local/go/bin/go" if os.access("/usr/local/go/bin/go", os.X_OK) else None)


def build(out):
    """Build the host's wheel into out; return its path."""
    if sys.version_info < (3, 11):
        raise unittest.SkipTest("build_wheels.py needs Python 3.11 (tomllib)")
    g = go()
    if g is None:
        raise unittest.SkipTest("go is not available to build the wheel's program")
    p = subprocess.run([sys.executable, BUILD, "--platform", "host", "--out", out, "--go", g],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True, text=True)
    _wheels.setdefault("stderr", p.stderr)
    paths = p.stdout.split()
    if len(paths) != 1:
        raise AssertionError("build_wheels.py printed %r, want one path" % p.stdout)
    return paths[0]


def wheel():
    """Return the path of the host's wheel, built once per test run."""
    if "path" not in _wheels:
        tmp = tempfile.mkdtemp(prefix="consensus-wheel-test-")
        _wheels["dir"] = tmp
        _wheels["path"] = build(tmp)
    return _wheels["path"]


def tearDownModule():
    if "dir" in _wheels:
        shutil.rmtree(_wheels["dir"], ignore_errors=True)


def package_version():
    with open(os.path.join(PYTHON, "consensus_crowd", "__init__.py"), encoding="utf-8") as f:
        return re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M).group(1)


class TestWheel(unittest.TestCase):

    def test_contents(self):
        path = wheel()
        version = package_version()
        name = os.path.basename(path)
        self.assertTrue(name.startswith("consensus_crowd-%s-py3-none-" % version), name)
        exe = "consensus.exe" if "-win_" in name else "consensus"
        info = "consensus_crowd-%s.dist-info/" % version
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            self.assertEqual(names[-1], info + "RECORD")
            self.assertTrue(all(not n.startswith(info) for n in names[:-3]), names)
            for want in ["consensus_crowd/__init__.py", "consensus_crowd/_binary.py", "consensus_crowd/_core.py",
                         "consensus_crowd/aggregation.py", "consensus_crowd/bin/" + exe,
                         info + "METADATA", info + "WHEEL"]:
                self.assertIn(want, names)
            self.assertFalse([n for n in names if n.endswith(".pyc") or "__pycache__" in n])
            mode = z.getinfo("consensus_crowd/bin/" + exe).external_attr >> 16
            self.assertEqual(mode & 0o777, 0o755)
            # RECORD names every other file with its sha256 and size.
            rows = list(csv.reader(io.StringIO(z.read(info + "RECORD").decode())))
            self.assertEqual(sorted(r[0] for r in rows), sorted(names))
            for file, digest, size in rows:
                if file == info + "RECORD":
                    self.assertEqual((digest, size), ("", ""))
                    continue
                data = z.read(file)
                want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                self.assertEqual((digest, int(size)), (want, len(data)), file)
            wheel_file = z.read(info + "WHEEL").decode()
            self.assertIn("Root-Is-Purelib: false\n", wheel_file)
            tags = name[:-len(".whl")].split("-py3-none-")[1].split(".")
            self.assertEqual(re.findall(r"^Tag: py3-none-(\S+)$", wheel_file, re.M), tags)
            meta = z.read(info + "METADATA").decode()
            self.assertIn("\nVersion: %s\n" % version, meta)
            self.assertIn("\nName: consensus-crowd\n", meta)
            self.assertIn('Requires-Dist: pandas>=1.1; extra == "pandas"', meta)
            with open(os.path.join(PYTHON, "pyproject.toml"), encoding="utf-8") as f:
                self.assertIn('\nversion = "%s"\n' % version, f.read())

    def test_installs_and_runs(self):
        """pip installs the wheel, and the package runs its own program with
        an empty PATH and no CONSENSUS_BIN."""
        path = wheel()
        if subprocess.run([sys.executable, "-m", "pip", "--version"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            self.skipTest("pip is not available to %s" % sys.executable)
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "site")
            empty = os.path.join(tmp, "empty")
            os.mkdir(empty)
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                            "--disable-pip-version-check", "--no-compile", "--target", target, path], check=True,
                           env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
            installed = os.path.join(target, "consensus_crowd", "bin", "consensus")
            if os.name != "nt":  # pip keeps the program's executable bits
                self.assertTrue(os.stat(installed).st_mode & 0o100, oct(os.stat(installed).st_mode))
            env = {k: v for k, v in os.environ.items() if k not in ("CONSENSUS_BIN", "PYTHONPATH")}
            env.update(PATH=empty, PYTHONPATH=target)
            script = """
import json, subprocess, consensus_crowd as cc
rows = [("t1", "w1", "cat"), ("t1", "w2", "cat"), ("t1", "w3", "dog"),
        ("t2", "w1", "dog"), ("t2", "w2", "dog"), ("t2", "w3", "dog")]
r = cc.aggregate(rows, "mv", workers=False)
b = cc.find_binary()
v = subprocess.run([b, "--version"], stdout=subprocess.PIPE, text=True, check=True).stdout
print(json.dumps({"binary": b, "labels": r.labels, "version": v, "module": cc.__file__}))
"""
            p = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp, stdout=subprocess.PIPE,
                               check=True, text=True)
            got = json.loads(p.stdout)
            self.assertTrue(got["module"].startswith(target + os.sep), got)
            self.assertEqual(got["binary"], installed + (".exe" if os.name == "nt" else ""))
            self.assertEqual(got["labels"], {"t1": "cat", "t2": "dog"})
            self.assertEqual(got["version"].strip(), "consensus version " + package_version())

    def test_reproducible(self):
        """The same checkout and Go toolchain give the same bytes."""
        first = wheel()
        with tempfile.TemporaryDirectory() as tmp:
            second = build(tmp)
            self.assertEqual(os.path.basename(first), os.path.basename(second))
            with open(first, "rb") as a, open(second, "rb") as b:
                self.assertTrue(a.read() == b.read(), "two builds of the wheel differ")

    def test_progress(self):
        """build_wheels.py reports each platform's compile and wheel on
        standard error (and only the wheel's path on standard output)."""
        wheel()
        stderr = _wheels["stderr"]
        self.assertRegex(stderr, r"build_wheels: \[1/1\] [a-z0-9]+-[a-z0-9]+: compiling the program")
        self.assertRegex(stderr, r"build_wheels: \[1/1\] .*: wrote .*\.whl \([0-9.]+ MB\)")

    def test_pip_install_offline(self):
        """pip install ./python needs nothing from the network: the build
        backend is build_wheels.py, the standard library alone (--no-index
        forbids any download)."""
        if subprocess.run([sys.executable, "-m", "pip", "--version"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            self.skipTest("pip is not available to %s" % sys.executable)
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "site")
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                            "--disable-pip-version-check", "--no-compile", "--target", target, PYTHON], check=True,
                           env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
            self.assertTrue(os.path.exists(os.path.join(target, "consensus_crowd", "aggregation.py")))
            self.assertFalse(os.path.exists(os.path.join(target, "consensus_crowd", "bin")))
            info = [d for d in os.listdir(target) if d.endswith(".dist-info")]
            self.assertEqual(info, ["consensus_crowd-%s.dist-info" % package_version()])

    def test_refuses_unknown_platform(self):
        if sys.version_info < (3, 11):
            self.skipTest("build_wheels.py needs Python 3.11 (tomllib)")
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([sys.executable, BUILD, "--platform", "plan9-386", "--out", tmp],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn("--platform plan9-386: want one of linux-amd64", p.stderr)
            self.assertEqual(os.listdir(tmp), [])


if __name__ == "__main__":
    unittest.main()
