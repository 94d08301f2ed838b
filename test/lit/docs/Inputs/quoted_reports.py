"""Every report line docs/guide.md quotes (the code block after "The report:")
appears verbatim in the plugin's reports given; "..." lines stand for lines
left out. Exit 1 naming the first line that does not."""
import sys

guide, reports = sys.argv[1], sys.argv[2:]
produced = set()
for r in reports:
    with open(r) as f:
        produced.update(line.rstrip("\n") for line in f)
lines = open(guide).read().split("\n")
quoted = 0
for i, line in enumerate(lines):
    if line.strip() != "The report:":
        continue
    j = i + 1
    while lines[j].strip() != "```":
        j += 1
    j += 1
    while lines[j].strip() != "```":
        if lines[j].strip() != "..." and lines[j] not in produced:
            print("guide.md:%d: not in any report: %s" % (j + 1, lines[j]))
            sys.exit(1)
        quoted += 1
        j += 1
print("%d quoted report lines found" % quoted)
sys.exit(0 if quoted else 1)
