#!/usr/bin/env python3
"""repo.LayersDependDownward: services/ is layered, and only downward.

services/ is one folder per layer and one library target per folder
(docs/design.md "Layers"). This check holds the code and the link lines to
the layer table below (LAYERS, from the top; each layer may reach only the
layers it names, and through them what those reach):

  - every layer's folder exists and its CMakeLists.txt defines its target;
    every C++ file of services/ lies in one of the folders;
  - the include closure of every file of a layer (its includes, and theirs
    through every header of the repository, storage/ and engine/ too)
    reaches no header of services/ outside the layer and the layers below
    it: an include upward, or sideways, is refused with its chain;
  - the layers marked proto-free (the domain and what it stands on) reach
    no gRPC, protobuf or mancala/v1 header through that closure;
  - each layer's target links (target_link_libraries) only targets of the
    layers below it, and the proto-free ones reach neither mancala_proto
    nor gRPC or protobuf through the link lines of the whole repository.

    check_layers.py ROOT    fails, listing each include chain or link
                            that breaks a rule
"""

import os
import re
import sys

from repo_files import repo_files

# (folder, target, the layers it may reach directly, proto-free). From the
# top; "services/" itself is the process and its wiring.
LAYERS = [
    ("services/", "mancala_services",
     ["web", "api", "wire", "matchmaking", "match", "cluster", "model",
      "tls", "base"], False),
    # The browsers' port: HTTP in front of the gRPC server's in-process
    # channel; of the edge it knows only the client-address key.
    ("services/web/", "mancala_web", ["api", "tls"], False),
    ("services/api/", "mancala_api",
     ["wire", "matchmaking", "match", "model", "base"], False),
    ("services/wire/", "mancala_wire",
     ["matchmaking", "match", "model", "base"], False),
    ("services/matchmaking/", "mancala_matchmaking",
     ["match", "model", "base"], True),
    ("services/match/", "mancala_match", ["cluster", "model", "base"], True),
    ("services/cluster/", "mancala_cluster", ["base"], True),
    ("services/model/", "mancala_model", ["base"], True),
    # TLS files checked and re-read for the ports that serve TLS.
    ("services/tls/", "mancala_tls", ["base"], False),
    ("services/base/", "mancala_base", [], True),
]
PROTO_OR_GRPC = re.compile(
    r"^(grpcpp/|grpc/|google/protobuf/|google/rpc/|mancala/v1/)|\.pb\.h$")
PROTO_TARGETS = re.compile(r"^(mancala_proto|gRPC::|protobuf::)")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
ADD_LIBRARY = re.compile(r"\badd_library\(\s*([\w:]+)")
LINK = re.compile(r"\btarget_link_libraries\(\s*([\w:]+)([^)]*)\)", re.S)
CPP = (".h", ".cc")


def folder_of(path):
    """The layer folder holding `path`, or None outside services/."""
    if not path.startswith("services/"):
        return None
    parts = path.split("/")
    return "services/" if len(parts) == 2 else "services/" + parts[1] + "/"


def reach(name):
    """Folders a layer may reach: itself and, transitively, its lower ones."""
    by_name = {f: below for f, _, below, _ in LAYERS}
    out, todo = {name}, [name]
    while todo:
        for b in by_name[todo.pop()]:
            f = "services/" + b + "/"
            if f not in out:
                out.add(f)
                todo.append(f)
    return out


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def include_problems(root, files):
    problems = []
    headers = set(files)
    includes = {}

    def of(path):
        if path not in includes:
            includes[path] = INCLUDE.findall(read(root, path))
        return includes[path]

    layers = {f: (reach(f), free) for f, _, _, free in LAYERS}
    for path in sorted(files):
        layer = folder_of(path)
        if layer not in layers or not path.endswith(CPP):
            continue
        allowed, proto_free = layers[layer]
        seen, todo = {path}, [[path]]
        while todo:
            chain = todo.pop()
            for name in of(chain[-1]):
                where = folder_of(name)
                if where is not None and where not in allowed:
                    problems.append("%s reaches %s upward or sideways: %s" % (
                        layer, where, " -> ".join(chain + [name])))
                    continue
                if proto_free and PROTO_OR_GRPC.search(name):
                    problems.append("%s (no protos) includes %s: %s" % (
                        layer, name, " -> ".join(chain + [name])))
                    continue
                if name in headers and name not in seen:
                    seen.add(name)
                    todo.append(chain + [name])
    return problems


def link_lines(root, files):
    """{target: [linked targets]} and {target: folder} over the repo."""
    links, defined = {}, {}
    for path in files:
        if os.path.basename(path) != "CMakeLists.txt":
            continue
        text = re.sub(r"#[^\n]*", "", read(root, path))
        folder = os.path.dirname(path) + "/"
        for m in ADD_LIBRARY.finditer(text):
            defined[m.group(1)] = folder
        for m in LINK.finditer(text):
            words = [w for w in m.group(2).split()
                     if w not in ("PUBLIC", "PRIVATE", "INTERFACE")]
            links.setdefault(m.group(1), []).extend(words)
    return links, defined


def link_problems(root, files):
    problems = []
    links, defined = link_lines(root, files)
    target_of = {t: f for f, t, _, _ in LAYERS}
    for folder, target, _, proto_free in LAYERS:
        if defined.get(target) != folder:
            problems.append("%sCMakeLists.txt does not define %s" % (
                folder, target))
            continue
        allowed = reach(folder) - {folder}
        for lib in links.get(target, []):
            where = next((f for f, t, _, _ in LAYERS if t == lib), None)
            if where is not None and where not in allowed:
                problems.append("%s links %s, a layer not below it" % (
                    target, lib))
        if not proto_free:
            continue
        seen, todo = {target}, [[target]]
        while todo:
            chain = todo.pop()
            for lib in links.get(chain[-1], []):
                if PROTO_TARGETS.search(lib):
                    problems.append("%s (no protos) links %s: %s" % (
                        target, lib, " -> ".join(chain + [lib])))
                elif lib not in seen and (lib in defined or lib in target_of):
                    seen.add(lib)
                    todo.append(chain + [lib])
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    root = argv[1]
    _, files = repo_files(root)
    files = [f for f in files if os.path.isfile(os.path.join(root, f))]
    problems = []
    folders = {f for f, _, _, _ in LAYERS}
    for f in folders:
        if not os.path.isdir(os.path.join(root, f)):
            problems.append("layer folder %s is missing" % f)
    for path in sorted(files):
        if path.endswith(CPP) and path.startswith("services/") \
                and folder_of(path) not in folders:
            problems.append("%s lies in no layer's folder" % path)
    problems += include_problems(root, files)
    problems += link_problems(root, files)
    for p in problems:
        print(p)
    checked = sum(1 for p in files if folder_of(p) and p.endswith(CPP))
    print("%d files of services/ checked against %d layers, %d problems" % (
        checked, len(LAYERS), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
