"""Fill a PDF form from a JSON mapping (demo resource; never executed by the tool)."""
import json
import sys


def main() -> int:
    fields = json.load(sys.stdin)
    for name, value in sorted(fields.items()):
        print(f"{name}={value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
