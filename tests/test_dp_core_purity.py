"""dp_core is the math alone: importing it loads neither Streamlit nor plotly."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_importing_dp_core_loads_no_ui_library() -> None:
    code = (
        "import sys, dp_core; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
    assert len(list((ROOT / "dp_core").glob("*.py"))) > 10  # the check saw the real package
