#!/usr/bin/env bash
# retry_once.sh CMD...: runs CMD; if it fails (any status but 0 or 77, the
# skip status), prints that it did, with its output above, and runs it once
# more, whose status is the result.
#
# Why: e2e.TwoNodesIssue14Scenario failed once in about ten runs on the
# loaded 2-core CI machine (at 6 s, when it started together with the whole
# suite) and its output was lost; every other run, alone or under load,
# passed. Until the cause is found, a second failure in a row still fails
# CI, and the first one stays in the log for whoever looks into it.
"$@"
rc=$?
if [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ]; then exit "$rc"; fi
echo "retry_once.sh: FIRST RUN FAILED with status $rc (output above);" \
  "running it once more" >&2
exec "$@"
