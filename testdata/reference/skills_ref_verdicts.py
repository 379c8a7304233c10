"""Records the reference validator's verdict on every sample, once.

The reference validator (skills-ref, in agentskills/agentskills) is Python and
is not on the npm registry, so the test cannot run it; this script ran it and
wrote skills-ref.json. Usage, from testdata/reference/:

    python3 skills_ref_verdicts.py <agentskills checkout>/skills-ref/src > skills-ref.json

It needs strictyaml (Debian: python3-strictyaml).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
from skills_ref.validator import validate  # noqa: E402

samples = sorted(p.parent for p in Path("samples").rglob("SKILL.md"))
verdicts = {p.as_posix(): validate(p) for p in samples}
print(json.dumps(verdicts, indent=2, ensure_ascii=False, sort_keys=True))
