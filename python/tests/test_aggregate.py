"""Tests of aggregate() and find_binary() with the standard library only."""

import csv
import os
import stat
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import consensus_crowd as cc  # noqa: E402
from support import binary, cli, export, read_table  # noqa: E402


def setUpModule():
    binary()


# A small crowd: three workers, two classes, every task labelled three times.
SMALL = [
    ("t1", "w1", "cat"), ("t1", "w2", "cat"), ("t1", "w3", "dog"),
    ("t2", "w1", "dog"), ("t2", "w2", "dog"), ("t2", "w3", "dog"),
    ("t3", "w1", "cat"), ("t3", "w2", "dog"), ("t3", "w3", "cat"),
    ("t4", "w1", "dog"), ("t4", "w2", "cat"), ("t4", "w3", "dog"),
]


def rename(rows, tasks, workers, labels):
    return [(tasks[t], workers[w], labels[y]) for t, w, y in rows]


class TestAgreesWithCLI(unittest.TestCase):
    """aggregate() on the exported labels gives the numbers of consensus fit
    --dataset, to the last bit."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.rows = export("rte", cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_models(self):
        for model in ["la-ds", "vb-da-ds"]:
            with self.subTest(model=model):
                out = os.path.join(self.tmp.name, model + ".csv")
                wout = os.path.join(self.tmp.name, model + "-workers.csv")
                cli("fit", "--dataset", "rte", "--model", model, "--output", out, "--workers", wout, "-q")
                header, rows = read_table(out)
                r = cc.aggregate(self.rows, model)
                self.assertEqual(r.model, model)
                self.assertEqual(r.classes, [h[2:] for h in header[2:]])
                self.assertEqual(len(r.labels), len(rows))
                for row in rows:
                    self.assertEqual(r.labels[row[0]], row[1])
                    self.assertEqual([r.probas[row[0]][c] for c in r.classes], [float(x) for x in row[2:]])
                wheader, wrows = read_table(wout)
                self.assertEqual(r.worker_columns, wheader)
                self.assertEqual(len(r.workers), len(wrows))
                for rec, row in zip(r.workers, wrows):
                    self.assertEqual(rec["worker"], row[0])
                    self.assertEqual(rec["labels"], int(row[1]))
                    self.assertEqual([rec[h] for h in wheader[2:]], [float(x) for x in row[2:]])

    def test_train_gold(self):
        # Every other gold task trains; the CLI given the same file agrees.
        _, gold = read_table(os.path.join(self.tmp.name, "gold.csv"))
        train = gold[::2]
        path = os.path.join(self.tmp.name, "train.csv")
        with open(path, "w") as f:
            f.write("task,label\n" + "".join("%s,%s\n" % (t, y) for t, y in train))
        for model in ["gmv", "la-ds", "vb-da-ds"]:
            with self.subTest(model=model):
                out = os.path.join(self.tmp.name, model + "-train.csv")
                cli("fit", "--dataset", "rte", "--model", model, "--train-gold", path, "--output", out, "-q")
                _, rows = read_table(out)
                r = cc.aggregate(self.rows, model, train_gold={t: y for t, y in train})
                self.assertEqual({row[0]: [float(x) for x in row[2:]] for row in rows},
                                 {t: [p[c] for c in r.classes] for t, p in r.probas.items()})
                if model != "gmv":  # clamped; gmv votes on every task
                    for t, y in train:
                        self.assertEqual(r.probas[t][y], 1.0)
        with self.assertRaises(cc.ConsensusError) as ctx:
            cc.aggregate(self.rows, "la-ds", train_gold=[(train[0][0], "7")])
        self.assertIn("train_gold:2: gold label '7'", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            cc.aggregate(self.rows, "la-ds", train_gold=[(train[0][0], None)])
        self.assertIn("train_gold item 0: label is missing", str(ctx.exception))

    def test_calibrate_gold(self):
        # The training gold also tempers the probabilities; the CLI agrees.
        _, gold = read_table(os.path.join(self.tmp.name, "gold.csv"))
        train = gold[::2]
        path = os.path.join(self.tmp.name, "train-cal.csv")
        with open(path, "w") as f:
            f.write("task,label\n" + "".join("%s,%s\n" % (t, y) for t, y in train))
        out = os.path.join(self.tmp.name, "cal.csv")
        cli("fit", "--dataset", "rte", "--model", "la-ds", "--train-gold", path, "--calibrate-gold",
            "--output", out, "-q")
        _, rows = read_table(out)
        r = cc.aggregate(self.rows, "la-ds", train_gold={t: y for t, y in train}, calibrate_gold=True)
        self.assertEqual({row[0]: [float(x) for x in row[2:]] for row in rows},
                         {t: [p[c] for c in r.classes] for t, p in r.probas.items()})
        with self.assertRaises(cc.ConsensusError) as ctx:
            cc.aggregate(self.rows, "la-ds", calibrate_gold=True)
        self.assertIn("--calibrate-gold needs training gold", str(ctx.exception))

    def test_init_and_fix_workers(self):
        """Workers fitted on half the tasks, held while the other half is
        fitted: the CLI given the same workers file agrees to the last bit."""
        tasks = sorted({t for t, _, _ in self.rows})
        first = set(tasks[::2])
        a = [r for r in self.rows if r[0] in first]
        b = [r for r in self.rows if r[0] not in first]
        old = cc.aggregate(a, "da-ds")
        labels_b = os.path.join(self.tmp.name, "b.csv")
        wfile = os.path.join(self.tmp.name, "a-workers.csv")
        with open(labels_b, "w") as f:
            f.write("task,worker,label\n" + "".join("%s,%s,%s\n" % r for r in b))
        with open(wfile, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(old.worker_columns)
            for rec in old.workers:
                w.writerow([rec["worker"]] + [repr(float(rec[c])) for c in old.worker_columns[1:]])
        out = os.path.join(self.tmp.name, "b-fixed.csv")
        cli("fit", "--input", labels_b, "--model", "da-ds", "--init-workers", wfile, "--fix-workers", "--output", out, "-q")
        _, rows = read_table(out)
        want = {row[0]: [float(x) for x in row[2:]] for row in rows}
        held = {rec["worker"]: rec for rec in old.workers}
        for given in [old, old.workers]:
            new = cc.aggregate(b, "da-ds", init_workers=given, fix_workers=True)
            self.assertEqual({t: [p[c] for c in new.classes] for t, p in new.probas.items()}, want)
            self.assertIn("are held at their parameters in", new.log)
            for rec in new.workers:
                for c in new.worker_columns[3:]:  # after worker, labels, skill
                    self.assertAlmostEqual(rec[c], held[rec["worker"]][c], delta=1e-12)
        default_old = cc.aggregate(a)
        default_new = cc.aggregate(b, init_workers=default_old, fix_workers=True)
        self.assertIn("164 of", default_new.log)
        self.assertIn("are held at their parameters in", default_new.log)
        self.assertIn("n[0]", default_new.worker_columns)
        started = cc.aggregate(b, "da-ds", init_workers=old)
        self.assertIn("workers start from", started.log)
        self.assertNotEqual(started.probas, new.probas)
        with self.assertRaises(ValueError) as ctx:
            cc.aggregate(b, "da-ds", fix_workers=True)
        self.assertIn("fix_workers=True needs init_workers=", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            cc.aggregate(b, "da-ds", init_workers=[{"worker": "w", "p[0,0]": "x"}])
        self.assertIn("init_workers item 0: 'p[0,0]' is 'x', not a number", str(ctx.exception))
        with self.assertRaises(cc.ConsensusError) as ctx:
            cc.aggregate(b, "da-glad", init_workers=old)
        self.assertIn("init_workers:1: header has", str(ctx.exception))
        self.assertIn("model da-glad needs the worker columns ability", str(ctx.exception))

    def test_threads_do_not_change_the_result(self):
        one = cc.aggregate(self.rows, threads=1)
        two = cc.aggregate(self.rows, threads=2)
        self.assertEqual(one.probas, two.probas)
        self.assertEqual(one.workers, two.workers)

    def test_auto_names_its_choice(self):
        r = cc.aggregate(self.rows, "auto", auto_models=["vb-da-ds", "vb-la-ds"])
        self.assertEqual(r.requested_model, "auto")
        self.assertIn(r.model, ["vb-da-ds", "vb-la-ds"])
        self.assertIsNotNone(r.workers)

    def test_auto_choosing_a_model_without_workers(self):
        # mv wins on held-out labels here; its fit has no worker table.
        r = cc.aggregate(self.rows, "auto", auto_models="mv,la-ds")
        self.assertIn(r.model, ["mv", "la-ds"])
        self.assertEqual(r.workers is None, r.model == "mv")
        self.assertIn("auto: chose " + r.model, r.log)

    def test_glad_tasks(self):
        r = cc.aggregate(self.rows, "la-glad")
        self.assertEqual(len(r.tasks), len(r.labels))
        self.assertEqual(sum(t["labels"] for t in r.tasks), len(self.rows))
        self.assertTrue(all(t["difficulty"] > 0 for t in r.tasks))


class TestCapabilities(unittest.TestCase):
    """aggregate() asks for what the binary says each model has
    (capabilities(), from consensus models --format json), and every model
    gives it."""

    def test_default(self):
        self.assertEqual(cc.capabilities()["default"], cc.DEFAULT_MODEL)

    def test_every_model_reports_what_it_declares(self):
        caps = cc.capabilities()
        self.assertIn("auto", caps)
        self.assertGreater(len(caps["models"]), 30)
        for name, c in caps["models"].items():
            with self.subTest(name):
                gold = {"t1": "cat", "t2": "dog"} if c["needs_gold"] else None
                r = cc.aggregate(SMALL, name, train_gold=gold, max_iter=20 if "max-iter" in c["settings"] else None)
                self.assertEqual(r.model, name)
                self.assertEqual(r.workers is not None, c["worker_params"])
                self.assertEqual(r.tasks is not None, c["task_params"])
                self.assertEqual(r.summary["model"], name)
                self.assertEqual(r.summary["labels"], len(SMALL))
                if c["both"]:
                    self.assertIsNotNone(r._dist_rows)


class TestValues(unittest.TestCase):

    def test_types_come_back_as_given(self):
        tests = [
            ("str", {"t1": "a", "t2": "b", "t3": "c", "t4": "d"}, {"w1": "x", "w2": "y", "w3": "z"},
             {"cat": "cat", "dog": "dog"}),
            ("int", {"t1": 10, "t2": 20, "t3": 30, "t4": 40}, {"w1": 1, "w2": 2, "w3": 3}, {"cat": 0, "dog": 1}),
            ("float labels", {"t1": 1, "t2": 2, "t3": 3, "t4": 4}, {"w1": "a", "w2": "b", "w3": "c"},
             {"cat": 0.5, "dog": 2.5}),
            ("bool labels", {"t1": 1, "t2": 2, "t3": 3, "t4": 4}, {"w1": "a", "w2": "b", "w3": "c"},
             {"cat": False, "dog": True}),
        ]
        reference = cc.aggregate(SMALL, "la-ds")
        for name, tasks, workers, labels in tests:
            with self.subTest(name):
                r = cc.aggregate(rename(SMALL, tasks, workers, labels), "la-ds")
                want = {tasks[t]: labels[y] for t, y in reference.labels.items()}
                self.assertEqual(r.labels, want)
                for t, y in r.labels.items():
                    self.assertIs(type(y), type(want[t]))
                self.assertEqual(sorted(r.classes), sorted(labels.values()))
                for rec in r.workers:
                    self.assertIn(rec["worker"], workers.values())
                    self.assertIs(type(rec["worker"]), type(next(iter(workers.values()))))

    def test_equal_numbers_are_one_value(self):
        # 1 and 1.0 (and numpy's 1) are one class, as in pandas and
        # Crowd-Kit, with the value first given; True stays apart.
        rows = [("a", "u", 1), ("a", "v", 1.0), ("b", "u", 2), ("b", "v", 2.0), ("c", "u", 2), ("c", "v", 1)]
        r = cc.aggregate(rows, "mv")
        self.assertEqual(r.classes, [1, 2])
        for t, row in r.probas.items():
            self.assertAlmostEqual(sum(row.values()), 1.0, msg=t)
        self.assertEqual(r.probas["a"], {1: 1.0, 2: 0.0})
        mixed = cc.aggregate([("a", "u", True), ("a", "v", 1), ("b", "u", 1.0)], "mv")
        self.assertEqual(len(mixed.classes), 2)

    def test_numeric_classes_in_numeric_order(self):
        rows = [("a", "u", 10), ("a", "v", 9), ("b", "u", 10), ("b", "v", 100)]
        self.assertEqual(cc.aggregate(rows, "mv").classes, [9, 10, 100])

    def test_quoting(self):
        # Ids the CSV must quote or that need care: the same crowd under
        # safe names gives the same numbers.
        tasks = {"t1": "a,b", "t2": 'say "hi"', "t3": "line\nbreak\r\nand more", "t4": "  padded  "}
        workers = {"w1": "ü日本", "w2": "tab\there", "w3": "x\u2028y"}
        labels = {"cat": "chat, le", "dog": 'perro "p"'}
        safe = cc.aggregate(SMALL, "vb-da-ds")
        r = cc.aggregate(rename(SMALL, tasks, workers, labels), "vb-da-ds")
        self.assertEqual(r.classes, [labels[c] for c in safe.classes])
        for t, probs in safe.probas.items():
            self.assertEqual(r.probas[tasks[t]], {labels[c]: p for c, p in probs.items()})
            self.assertEqual(r.labels[tasks[t]], labels[safe.labels[t]])
        self.assertEqual({w["worker"] for w in r.workers}, set(workers.values()))
        for ws, wr in zip(safe.workers, r.workers):
            self.assertEqual(workers[ws["worker"]], wr["worker"])
            self.assertEqual(ws["skill"], wr["skill"])

    def test_classes_option(self):
        r = cc.aggregate(SMALL, "rfe", classes=["dog", "cat", "bird"])
        self.assertEqual(r.classes, ["dog", "cat", "bird"])
        self.assertEqual(r.probas["t2"], {"dog": 1.0, "cat": 0.0, "bird": 0.0})

    def test_refused_values(self):
        tests = [
            ("missing label", [("t1", "w1", None)], "labels item 0: label is missing"),
            ("NaN label", [("t1", "w1", "a"), ("t1", "w2", float("nan"))], "labels item 1: label is missing"),
            ("empty task", [("  ", "w1", "a")], "labels item 0: task '  ' is empty"),
            ("text NaN", [("t1", "w1", "-Inf")], "NaN or infinite"),
            ("same text", [("t1", "w1", "a"), (" t1", "w1", "a")], "tasks 't1' and ' t1' are both 't1'"),
            ("same text, other type", [("t1", "w1", 1), ("t1", "w2", "1")], "labels 1 and '1' are both '1'"),
            ("not a triple", [("t1", "w1")], "labels item 0: ('t1', 'w1') is not a (task, worker, label) tuple"),
            ("no rows", [], "labels: no rows"),
            ("lone surrogate", [("t\ud800", "w1", "a")], "not valid Unicode"),
            ("comma in classes", SMALL, "contains a comma"),
        ]
        for name, rows, want in tests:
            with self.subTest(name):
                kw = {"classes": ["a,b"]} if name == "comma in classes" else {}
                with self.assertRaises(ValueError) as ctx:
                    cc.aggregate(rows, "mv", **kw)
                self.assertIn(want, str(ctx.exception))


class TestErrors(unittest.TestCase):

    def test_cli_errors_carry_the_message(self):
        three = SMALL + [("t5", "w1", "bird"), ("t5", "w2", "bird")]
        tests = [
            ("a row repeats the header", SMALL + [("task", "worker", "label")], {},
             "consensus: labels item 12: the row repeats the header's column names", 2),
            ("a row repeats the header, ids with line breaks",
             [("a\nb", "w1", "x"), ("task", "worker", "label")], {},
             "consensus: the labels (as CSV):4: the row repeats the header's column names", 2),
            ("kos with three classes", three, {"model": "kos"}, "two classes", 2),
            ("label outside classes", SMALL, {"classes": ["cat", "bird"]}, '"dog" is not one of the classes', 2),
            ("unknown model", SMALL, {"model": "no-such-model"}, "no-such-model", 2),
            ("strict at the limit", SMALL, {"model": "la-glad", "max_iter": 1, "strict": True}, "", 1),
        ]
        for name, rows, kw, want, status in tests:
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp, \
                    mock.patch.object(cc._core.tempfile, "tempdir", tmp):
                with self.assertRaises(cc.ConsensusError) as ctx:
                    cc.aggregate(rows, **kw)
                err = ctx.exception
                self.assertTrue(str(err).startswith("consensus: "), str(err))
                self.assertNotIn("\n", str(err))
                self.assertIn(want, str(err))
                self.assertEqual(err.returncode, status)
                self.assertEqual(os.listdir(tmp), [], "temporary files left behind")
                self.assertNotIn(tmp, str(err))

    def test_temporary_directory_removed_on_success(self):
        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(cc._core.tempfile, "tempdir", tmp):
            cc.aggregate(SMALL)
            self.assertEqual(os.listdir(tmp), [])

    def test_temporary_directory_removed_on_interrupt(self):
        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(cc._core.tempfile, "tempdir", tmp), \
                mock.patch.object(cc._core, "_run", side_effect=KeyboardInterrupt):
            with self.assertRaises(KeyboardInterrupt):
                cc.aggregate(SMALL)
            self.assertEqual(os.listdir(tmp), [])

    def test_options_are_checked(self):
        tests = [
            ({"n_iter": 5}, "unexpected keyword argument 'n_iter'"),
            ({"max_iter": "5"}, "max_iter must be an int"),
            ({"seed": True}, "seed must be an int"),
            ({"strict": 1}, "strict must be True or False"),
            ({"q_prior": "1"}, "q_prior must be a number"),
            ({"auto_models": [1]}, "auto_models must be a list"),
        ]
        for kw, want in tests:
            with self.subTest(kw):
                with self.assertRaises(TypeError) as ctx:
                    cc.aggregate(SMALL, **kw)
                self.assertIn(want, str(ctx.exception))

    def test_options_reach_the_cli(self):
        loose = cc.aggregate(SMALL, "vb-da-ds", q_prior=1.0)
        sharp = cc.aggregate(SMALL, "vb-da-ds", q_prior=0.1)
        self.assertNotEqual(loose.probas, sharp.probas)
        self.assertEqual(cc.aggregate(SMALL, "vb-da-ds", q_prior=0.5).probas, cc.aggregate(SMALL, "vb-da-ds").probas)


class TestWithoutPandas(unittest.TestCase):

    def test_core_works_and_pandas_parts_say_so(self):
        with mock.patch.dict(sys.modules, {"pandas": None}):  # import pandas raises ImportError
            r = cc.aggregate(SMALL, "la-ds")
            self.assertEqual(set(r.labels), {"t1", "t2", "t3", "t4"})
            for get in [lambda: r.labels_, lambda: r.probas_, lambda: r.workers_,
                        lambda: cc.DawidSkene().fit(SMALL)]:
                with self.assertRaises(ImportError) as ctx:
                    get()
                self.assertIn("needs pandas", str(ctx.exception))


class TestLoadDataset(unittest.TestCase):

    def test_plain_and_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            want = export("temp", tmp)
            _, gold = read_table(os.path.join(tmp, "gold.csv"))
        with mock.patch.dict(sys.modules, {"pandas": None}):  # the lists without pandas
            labels, truth = cc.load_dataset("temp")
        self.assertEqual(labels, want)
        self.assertEqual(truth, {t: g for t, g in gold})
        with self.assertRaises(cc.ConsensusError) as ctx:
            cc.load_dataset("no-such-set")
        self.assertIn('unknown data set "no-such-set"', str(ctx.exception))
        self.assertEqual(ctx.exception.returncode, 2)


def fake_program(directory, name="consensus"):
    """Write a shell script that exits 0 at directory/name; return its path."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class TestBinary(unittest.TestCase):

    def setUp(self):
        # No program is bundled in a checkout; these tests say where one is.
        p = mock.patch("consensus_crowd._binary.bundled_path", return_value=os.path.join("/nonexistent", "consensus"))
        p.start()
        self.addCleanup(p.stop)

    def test_order(self):
        real = binary()
        with tempfile.TemporaryDirectory() as tmp:
            fake = fake_program(tmp)
            with mock.patch.dict(os.environ, {"CONSENSUS_BIN": real, "PATH": tmp}):
                self.assertEqual(cc.find_binary(), real)
                self.assertEqual(cc.find_binary(fake), fake)
            env = {k: v for k, v in os.environ.items() if k != "CONSENSUS_BIN"}
            env["PATH"] = tmp
            with mock.patch.dict(os.environ, env, clear=True):
                self.assertEqual(cc.find_binary(), fake)

    def test_bundled(self):
        """The bundled program comes after binary= and CONSENSUS_BIN and
        before PATH; one that lost its executable bits gets them back."""
        real = binary()
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "bin"))
            os.mkdir(os.path.join(tmp, "path"))
            bundled = fake_program(os.path.join(tmp, "bin"))
            on_path = fake_program(os.path.join(tmp, "path"))
            env = {k: v for k, v in os.environ.items() if k != "CONSENSUS_BIN"}
            env["PATH"] = os.path.dirname(on_path)
            with mock.patch("consensus_crowd._binary.bundled_path", return_value=bundled):
                with mock.patch.dict(os.environ, env, clear=True):
                    self.assertEqual(cc.find_binary(), bundled)
                    self.assertEqual(cc.find_binary(real), real)
                    os.chmod(bundled, 0o644)
                    self.assertEqual(cc.find_binary(), bundled)
                    self.assertTrue(os.stat(bundled).st_mode & stat.S_IXUSR)
                with mock.patch.dict(os.environ, dict(env, CONSENSUS_BIN=real), clear=True):
                    self.assertEqual(cc.find_binary(), real)
            with mock.patch("consensus_crowd._binary.bundled_path", return_value=os.path.join(tmp, "none")):
                with mock.patch.dict(os.environ, env, clear=True):
                    self.assertEqual(cc.find_binary(), on_path)

    def test_binary_writing_nothing(self):
        # A program that exits 0 without writing its tables gives a
        # ConsensusError naming the table, not a FileNotFoundError naming a
        # temporary path; an empty table likewise. aggregate first asks
        # the program for its models' capabilities, and says it gave none.
        with tempfile.TemporaryDirectory() as tmp:
            for name, script in [("silent", "#!/bin/sh\nexit 0\n"),
                                 ("empty", "#!/bin/sh\nfor a; do case $p in --output|-o) : > \"$a\";; esac; p=$a; done\n")]:
                with self.subTest(name):
                    fake = os.path.join(tmp, name)
                    with open(fake, "w") as f:
                        f.write(script)
                    os.chmod(fake, 0o755)
                    with self.assertRaises(cc.ConsensusError) as ctx:
                        cc.aggregate(SMALL, "mv", binary=fake)
                    msg = str(ctx.exception)
                    self.assertIn("did not list its models' capabilities", msg)
                    self.assertNotIn(tempfile.gettempdir(), msg)
                    with self.assertRaises(cc.ConsensusError) as ctx:
                        cc.aggregate_pairwise([("w", "a", "b", "a"), ("w", "b", "a", "a")], binary=fake)
                    self.assertIn("scores table", str(ctx.exception))

    def test_binary_writing_a_broken_summary(self):
        # A program that runs consensus but leaves its summary cut short
        # (or not JSON) gives a ConsensusError saying so, not the json
        # module's JSONDecodeError.
        real = cc.find_binary()
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in [("cut", '{"mo'), ("list", "[1, 2]")]:
                with self.subTest(name):
                    fake = os.path.join(tmp, name)
                    with open(fake, "w") as f:
                        f.write('#!/bin/sh\n"%s" "$@" || exit $?\n'
                                'for a; do case $p in --summary) printf \'%s\' > "$a";; esac; p=$a; done\n' % (real, text))
                    os.chmod(fake, 0o755)
                    with self.assertRaises(cc.ConsensusError) as ctx:
                        cc.aggregate(SMALL, "mv", binary=fake)
                    self.assertIn("wrote a summary that is not its JSON", str(ctx.exception))

    def test_not_found(self):
        env = {k: v for k, v in os.environ.items() if k != "CONSENSUS_BIN"}
        with tempfile.TemporaryDirectory() as tmp:
            env["PATH"] = tmp
            with mock.patch.dict(os.environ, env, clear=True):
                for kw in [{}, {"binary": os.path.join(tmp, "nothing")}]:
                    with self.subTest(kw):
                        with self.assertRaises(cc.BinaryNotFoundError) as ctx:
                            cc.aggregate(SMALL, **kw)
                        msg = str(ctx.exception)
                        self.assertIn("go install github.com/consensuslab/consensus/cmd/consensus@latest", msg)
                        self.assertIn("go build ./cmd/consensus", msg)
                        self.assertIn("python/build_wheels.py", msg)
            with mock.patch.dict(os.environ, {"CONSENSUS_BIN": os.path.join(tmp, "nothing")}):
                with self.assertRaises(cc.BinaryNotFoundError) as ctx:
                    cc.find_binary()
                self.assertIn("CONSENSUS_BIN", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
