"""Plain-python checks of the harness helpers (no torch):
    python3 -m unittest model/validation/torch/test_shapes.py   (or from here)"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shapes  # noqa: E402
import ncu_post  # noqa: E402


class TestShapes(unittest.TestCase):
    def test_fnv_known_answers(self):
        # published FNV-1a 64 test vectors
        self.assertEqual(shapes.fnv1a64(""), 0xcbf29ce484222325)
        self.assertEqual(shapes.fnv1a64("a"), 0xaf63dc4c8601ec8c)
        self.assertEqual(shapes.fnv1a64("foobar"), 0x85944171f73967e8)

    def test_split(self):
        a = shapes.gemm_args(4096, 4096, 4096, "f16")
        self.assertEqual(a, "gemm --m 4096 --n 4096 --k 4096 --dtype f16 "
                            "--layout nn --batch 1")
        want = "holdout" if shapes.fnv1a64(a) % 3 == 0 else "train"
        self.assertEqual(shapes.split_of(a), want)

    def test_args_spelling(self):
        self.assertEqual(shapes.attention_args(4, 32, 2048, 128, True, "f16"),
                         "attention --batch 4 --heads 32 --seq 2048 "
                         "--head-dim 128 --causal --dtype f16")
        self.assertEqual(shapes.conv2d_args(32, 64, 56, 56, 64, 3, 3, 1, 1, "f16"),
                         "conv2d --n 32 --c 64 --h 56 --w 56 --k 64 --r 3 --s 3 "
                         "--stride 1 --pad 1 --dtype f16")
        op, p = shapes.parse_args(shapes.attention_args(1, 2, 3, 64, True, "bf16"))
        self.assertEqual((op, p["seq"], p["causal"], p["dtype"]),
                         ("attention", 3, True, "bf16"))

    def test_fresh_sets_apart(self):
        old = set(a for _, a in shapes.gemm_cases() + shapes.op_cases())
        fg, fo = shapes.fresh_gemm_cases(), shapes.fresh_op_cases()
        self.assertGreaterEqual(len(fg) + len(fo), 80)
        for _, a in fg + fo:
            self.assertNotIn(a, old)
            shapes.parse_args(a)
        ids = shapes.fresh_ids("fg", fg)
        self.assertEqual(ids[0][:2], ("fg001", "fresh"))

    def test_rows2_apart(self):
        old = set(a for _, a in shapes.gemm_cases() + shapes.op_cases() +
                  shapes.fresh_gemm_cases() + shapes.fresh_op_cases())
        r2 = shapes.rows2_cases()
        self.assertGreaterEqual(len(r2), 30)
        for _, a in r2:
            self.assertNotIn(a, old)
            self.assertEqual(shapes.parse_args(a)[0], "rowsum")

    def test_case_counts(self):
        g, o = shapes.gemm_cases(), shapes.op_cases()
        self.assertGreaterEqual(len(g), 100)
        self.assertGreaterEqual(len(o), 90)
        args = [a for _, a in g + o]
        self.assertEqual(len(args), len(set(args)))
        for a in shapes.ncu_subset():
            self.assertIn(a, args)

    def test_kernel_token_roundtrip(self):
        t = shapes.kernel_token("void k<a, b>(x;y@z)", (4, 2, 1), (128, 1, 1), 90)
        self.assertEqual(t, "void k<a, b>(x_y_z)@4,2,1@128,1,1@90")
        self.assertEqual(shapes.parse_kernel_token(t),
                         ("void k<a, b>(x_y_z)", (4, 2, 1), (128, 1, 1), 90))

    def test_group_exact_and_fallback(self):
        a = ("A", (1, 1, 1), (1, 1, 1), 8)
        b = ("B", (1, 1, 1), (1, 1, 1), 8)
        ev = [(a, 10.0), (b, 1.0), (a, 12.0), (b, 3.0), (a, 11.0), (b, 2.0)]
        g, exact = shapes.group_per_rep(ev, 3)
        self.assertTrue(exact)
        self.assertEqual(shapes.row_fields(g)[1:], ("11.000;2.000", "13.000"))
        g, exact = shapes.group_per_rep(ev[:5], 3)  # one B missing
        self.assertFalse(exact)
        self.assertEqual([k[0] for k, _ in g], ["A", "B"])

    def test_csv_atomic(self):
        d = tempfile.mkdtemp()
        p = os.path.join(d, "x.csv")
        shapes.write_csv(p, [["g001", "train", "square", "gemm --m 1", "k@1,1,1@1,1,1@2",
                              "1.000", "1.000", 5]])
        txt = open(p).read()
        self.assertTrue(txt.startswith(",".join(shapes.COLUMNS) + "\n"))
        self.assertFalse(os.path.exists(p + ".tmp"))

    def test_diag_cases(self):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, "gpu"))
        shapes.write_csv(os.path.join(d, "gpu", "set.csv"),
                         [["g001", "train", "square", "gemm --m 1", "k", "1", "1", 5],
                          ["g002", "holdout", "square", "gemm --m 2", "k", "1", "1", 5],
                          ["g003", "diag", "diag", "gemm --m 3", "k", "1", "1", 5]])
        good = os.path.join(d, "good.txt")
        open(good, "w").write("# c\nx1 gemm  --m 1\n\nx3 gemm --m 3  # ok\n")
        self.assertEqual(shapes.diag_cases(good, d, "timed"),
                         [("x1", "gemm  --m 1"), ("x3", "gemm --m 3")])
        for text in ("x2 gemm --m  2\n", "x4\n"):
            bad = os.path.join(d, "bad.txt")
            open(bad, "w").write(text)
            with self.assertRaises(SystemExit) as e:
                shapes.diag_cases(bad, d, "timed")
            self.assertEqual(e.exception.code, 2)


class TestNcuPost(unittest.TestCase):
    def test_raw_units_and_markers(self):
        d = tempfile.mkdtemp()
        raw = os.path.join(d, "raw.csv")
        with open(raw, "w") as f:
            f.write('==PROF== Connected\n')
            f.write('"ID","Kernel Name","Block Size","Grid Size","gpu__time_duration.sum","dram__bytes_read.sum"\n')
            f.write('"","","","","nsecond","byte"\n')
            f.write('"0","void bitwise_not_kernel","(64, 1, 1)","(1, 1, 1)","1,000","0"\n')
            f.write('"1","nvjet_x","(384, 1, 1)","(132, 1, 1)","150,000","33554432"\n')
        ks = ncu_post.read_raw(raw)
        self.assertEqual(ks[1]["gpu_time_us"], "150")
        self.assertEqual(ks[1]["dram_read_bytes"], "33554432")
        self.assertEqual(ks[1]["grid"], "132,1,1")
        at = ncu_post.attribute(ks, ["gemm --m 1"])
        self.assertEqual([(a, k["kernel"]) for a, k in at], [("gemm --m 1", "nvjet_x")])


if __name__ == "__main__":
    unittest.main()
