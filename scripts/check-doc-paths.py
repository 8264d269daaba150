#!/usr/bin/env python3
"""Checks that every file README.md and docs/*.md cite is in the repository.

Usage: scripts/check-doc-paths.py [REPO]   (default: the repository this script is in)

What counts as a citation:
- a Markdown link to a relative path, `[text](path)` (anchors and URLs are not checked), resolved
  from the citing file's folder;
- a repository path anywhere in the text, `Sources/…`, `Tests/…`, `docs/…`, `scripts/…` and the
  other top-level folders, resolved from the repository's root, up to the first character that
  cannot be part of a path;
- a bare `NAME.md`, resolved from the citing file's folder or else the root.

A path with a wildcard or a placeholder (`*`, `<…>`, `{…}`, `…`) names a pattern: it passes when
the pattern matches a file. A path ending in `:LINE` is checked without the line. Prints one line
per missing file (FILE:LINE: PATH) and exits 1 if there is any, else exits 0 silently. It reads
only text, in well under a second: `make lint` runs it.
"""

import glob
import os
import re
import sys

ROOTS = (
    "Benchmarks", "Fuzz", "Plugins", "Sources", "Tests", "config", "data", "docs", "packaging",
    "scripts", "systemd",
)
PATH_CHARS = r"[A-Za-z0-9_.+@*/{},<>…-]"
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:%s)/%s*)" % ("|".join(ROOTS), PATH_CHARS)
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
BARE_MD = re.compile(r"(?<![\w./-])([A-Za-z0-9_-]+\.md)\b")


def exists(path):
    """Whether `path` (absolute) names a file or folder, or, as a pattern, matches one."""
    path = re.sub(r":\d+(-\d+)?$", "", path.rstrip(".,;:"))
    if re.search(r"[*<{…]", path):
        pattern = re.sub(r"<[^>]*>|\{[^}]*\}|…", "*", path)
        return bool(glob.glob(pattern))
    return os.path.exists(path)


def citations(text):
    """(line number, path, relative to the citing folder?) for each citation in `text`."""
    for number, line in enumerate(text.split("\n"), start=1):
        for match in LINK.finditer(line):
            target = match.group(1).split("#")[0]
            if target and not re.match(r"^[a-z]+:", target):
                yield number, target, True
        for match in REPO_PATH.finditer(line):
            yield number, match.group(1).rstrip(".,;:)"), False
        for match in BARE_MD.finditer(line):
            yield number, match.group(1), None


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    files = [os.path.join(repo, "README.md")] + sorted(glob.glob(os.path.join(repo, "docs", "*.md")))
    missing = []
    for file in files:
        folder = os.path.dirname(file)
        with open(file, encoding="utf-8") as handle:
            text = handle.read()
        for number, path, relative in citations(text):
            if relative is None:
                found = exists(os.path.join(folder, path)) or exists(os.path.join(repo, path))
            else:
                found = exists(os.path.join(folder if relative else repo, path))
            line = "%s:%d: %s" % (os.path.relpath(file, repo), number, path)
            if not found and line not in missing:
                missing.append(line)
    for line in missing:
        print("check-doc-paths: " + line, file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
