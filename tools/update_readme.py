#!/usr/bin/env python3
"""Replace (or with --check, compare) README's generated hint reference.

usage: update_readme.py [--check] README.md HINTDOC_PROGRAM
The section lies between the markers <!-- hints:begin --> and <!-- hints:end -->.
"""
import subprocess
import sys

BEGIN, END = "<!-- hints:begin -->", "<!-- hints:end -->"


def main(argv):
    check = "--check" in argv
    readme, tool = [a for a in argv[1:] if a != "--check"]
    text = open(readme, encoding="utf-8").read()
    generated = subprocess.run([tool], check=True, capture_output=True, text=True).stdout
    try:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
    except ValueError:
        sys.exit(f"{readme}: markers {BEGIN} / {END} not found")
    new = f"{head}{BEGIN}\n{generated}{END}{tail}"
    if check:
        if new != text:
            sys.exit(f"{readme}: hint reference is stale; run 'make readme-hints'")
        print("hint reference in README is current")
        return
    if new != text:
        open(readme, "w", encoding="utf-8").write(new)
        print(f"updated the hint reference in {readme}")


if __name__ == "__main__":
    main(sys.argv)
