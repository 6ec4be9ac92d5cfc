#!/usr/bin/env python3
"""repo.DomainIncludesNoProtoOrGrpc: the domain core builds no protos.

The match domain (services/live_matches.h and the files split from it) and
the matchmaker (services/matchmaker.h) return absl::Status and plain views;
the gRPC edge builds the mancala.v1 messages and the grpc::Status once
(docs/design.md "Errors"). This check keeps it so:

  - the domain's headers (HEADERS) include, directly or through any header
    of the repository they include, no gRPC, protobuf or mancala/v1 header
    and no header of the edge (EDGE): whoever includes them gets none;
  - the domain's sources (SOURCES, and services/match_*.cc except the
    services) include none of those directly. (They still use helpers of
    two headers that also hold edge functions: resource_names.h and
    field_limits.h; ids/tokens come from ids.h, which has none.)

    check_domain_includes.py ROOT    fails, listing each include and the
                                     chain of headers that brought it
"""

import os
import re
import sys

HEADERS = [
    "services/live_matches.h",
    "services/matchmaker.h",
    "services/match_views.h",
    "services/search_views.h",
    "services/watch_events.h",
    "services/stored_codec.h",
    "services/search_codec.h",
]
SOURCES = [
    "services/live_match.cc",
    "services/live_matches.cc",
    "services/live_matches_stats.cc",
    "services/matchmaker.cc",
]
# The edge: the gRPC services, errors.h ToGrpc, the conversions and the
# stream reactor.
EDGE = re.compile(
    r"^services/(errors|convert|search_convert|event_stream|"
    r"[a-z_]+_service)\.h$")
PROTO_OR_GRPC = re.compile(
    r"^(grpcpp/|grpc/|google/protobuf/|google/rpc/|mancala/v1/)|\.pb\.h$")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


def forbidden(name):
    return bool(PROTO_OR_GRPC.search(name) or EDGE.match(name))


def transitive(root, header):
    """(chain, include) for every forbidden include reached from
    `header` through the repository's own headers."""
    found, seen, todo = [], {header}, [[header]]
    while todo:
        chain = todo.pop()
        for name in includes(root, chain[-1]):
            if forbidden(name):
                found.append((chain, name))
            elif os.path.isfile(os.path.join(root, name)) and name not in seen:
                seen.add(name)
                todo.append(chain + [name])
    return found


def domain_sources(root):
    services = os.path.join(root, "services")
    split = sorted("services/" + n for n in os.listdir(services)
                   if re.match(r"^match_[a-z_]+\.cc$", n)
                   and not n.endswith("_service.cc"))
    return SOURCES + split


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    root = argv[1]
    problems = []
    for header in HEADERS:
        for chain, name in transitive(root, header):
            problems.append(" -> ".join(chain) + " -> " + name)
    for source in domain_sources(root):
        for name in includes(root, source):
            if forbidden(name):
                problems.append(source + " -> " + name)
    for p in problems:
        print("domain includes the edge: " + p)
    checked = len(HEADERS) + len(domain_sources(root))
    print("%d domain files checked, %d problems" % (checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
