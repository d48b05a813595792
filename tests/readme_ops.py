#!/usr/bin/env python3
"""The documented operator list against the operator table.

usage: readme_ops.py TFLC README.md [--write]
Compares the block between <!-- ops:begin --> and <!-- ops:end --> with
`TFLC ops --list`; prints "1 passed, 0 failed" or the difference. With
--write, rewrites the block instead. The block lives in docs/operators.md
(README links to it): a README without it is read through that page."""
import os, subprocess, sys

tool, readme = sys.argv[1], sys.argv[2]
if "<!-- ops:begin -->" not in open(readme).read():
    readme = os.path.join(os.path.dirname(os.path.abspath(readme)), "docs",
                          "operators.md")
want = subprocess.run([tool, "ops", "--list"], capture_output=True,
                      text=True, check=True).stdout
text = open(readme).read()
a = text.index("<!-- ops:begin -->\n") + len("<!-- ops:begin -->\n")
b = text.index("<!-- ops:end -->")
if "--write" in sys.argv:
    open(readme, "w").write(text[:a] + want + text[b:])
    print("operator list rewritten in " + readme)
elif text[a:b] == want:
    print("1 passed, 0 failed")
else:
    print(readme + ": operator list differs from `tflc ops --list`; "
          "run `make readme-ops`")
    print("0 passed, 1 failed")
    sys.exit(1)
