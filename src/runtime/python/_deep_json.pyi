# The worker's view of the package's deep JSON parser, python/codemode/_deep_json.py: the
# launcher (launch.rs) runs that file as the module `_deep_json` before bootstrap.py. This
# stub lets mypy check bootstrap.py alone (the package's `_json.py` beside the real file
# would shadow the standard `_json` module bootstrap.py imports); mypy checks the parser
# itself with the package. Keep the signature the parser's.
from typing import Any

def loads_deep(text: str) -> Any: ...
