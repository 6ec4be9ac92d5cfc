"""Runs the Python client tests against a real mancalad, then checks that
the run reached every error reason the API documents
(mancala.v1.ErrorReason) and no other.

Usage: run.py MANCALAD PYTHON_STUBS_DIR
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

def main():
    os.environ["MANCALAD"] = sys.argv[1]
    sys.path.insert(0, sys.argv[2])
    sys.path.insert(0, HERE)
    import harness
    from mancala.v1 import error_reason_pb2

    suite = unittest.defaultTestLoader.discover(HERE, pattern="*_test.py")
    try:
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    finally:
        harness.srv.close()
    if not result.wasSuccessful():
        return 1
    documented = {v.name for v in error_reason_pb2.ErrorReason.DESCRIPTOR.values
                  if v.number != 0}
    print("Error reasons reached, per RPC (RPC reason: first test):")
    for (rpc, reason), test in sorted(harness.REACHED_BY.items()):
        print("  %s %s: %s" % (rpc, reason, test))
    unreached = documented - harness.REACHED
    print("Error reasons reached: %d of %d documented"
          % (len(harness.REACHED & documented), len(documented)))
    unknown = harness.REACHED - documented
    if unreached or unknown:
        print("FAIL: documented but never reached: %s; reached but not "
              "documented: %s" % (sorted(unreached), sorted(unknown)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
