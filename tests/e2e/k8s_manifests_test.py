#!/usr/bin/python3
"""deploy/k8s/ is valid YAML and agrees with the server it deploys.

1. `yamllint --strict` with deploy/k8s/.yamllint passes on every file.
2. The manifests agree with each other and with mancalad: the gRPC port
   serves TLS from a mounted Secret (--tls-cert-file and --tls-key-file are
   its tls.crt and tls.key); every probe's port is the container's health
   port (the plaintext one --health-listen names, since the kubelet's gRPC
   probes cannot do TLS); liveness and startup ask the liveness health name
   and readiness the readiness name, as services/server.h spells them, and
   a real mancalad serving TLS (a throwaway certificate) answers SERVING for
   both on its plaintext health port; the DSN comes from the Secret key the
   example Secret has, with --storage postgres; selectors match the pod's
   labels; Service target ports are container ports; the grace period
   covers preStop + --drain-seconds + the 10 s cut-off for calls in flight;
   non-root, read-only root filesystem, requests and limits; every flag in
   args is one `mancalad --help` lists; --web-root is the folder the image
   serves the board page from by default (deploy/Containerfile's CMD, which
   container_image_test.sh checks serves it).
3. The check can fail: each of a few wrong edits (a probe port, a health
   name, the Secret key, a selector label, a Service target port, the page's
   folder) made to a copy of the parsed manifests must be reported.

usage: k8s_manifests_test.py MANCALAD REPO_DIR [YAMLLINT]
"""

import copy
import os
import re
import subprocess
import sys
import tempfile
import time

import grpc
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import health_check  # noqa: E402

DEADLINE_S = 20
CALLS_CUTOFF_S = 10  # services/server.cc Shutdown: calls in flight.


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def health_names(repo):
    """{'readiness': name, 'liveness': name} from services/server.h."""
    text = open(os.path.join(repo, "services", "server.h")).read()
    names = {}
    for kind in ("Readiness", "Liveness"):
        m = re.search(r'k%sHealthName\[\] = "([^"]*)"' % kind, text)
        if not m:
            fail("services/server.h has no k%sHealthName" % kind)
        names[kind.lower()] = m.group(1)
    return names


def served_names(mancalad, names):
    """Asks a real mancalad (SQLite, TLS with a throwaway self-signed
    certificate, ports 0) for each name on its plaintext health port, as
    the kubelet does: {name: status}."""
    work = tempfile.mkdtemp(prefix="mancala_k8s_")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
         "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj",
         "/CN=mancalad", "-keyout", os.path.join(work, "tls.key"),
         "-out", os.path.join(work, "tls.crt")],
        check=True, capture_output=True)
    log_path = os.path.join(work, "mancalad.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [mancalad, "--listen", "127.0.0.1:0",
             "--db", os.path.join(work, "mancala.db"),
             "--tls-cert-file", os.path.join(work, "tls.crt"),
             "--tls-key-file", os.path.join(work, "tls.key"),
             "--health-listen", "127.0.0.1:0"],
            stdout=log, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + DEADLINE_S
        port = None
        while port is None:
            m = re.search(r"health port on port (\d+)", open(log_path).read())
            if m:
                port = int(m.group(1))
            elif proc.poll() is not None or time.monotonic() > end:
                fail("mancalad did not start:\n" + open(log_path).read())
            else:
                time.sleep(0.02)
        with grpc.insecure_channel("127.0.0.1:%d" % port) as channel:
            return {n: health_check.check(channel, n) for n in names}
    finally:
        proc.terminate()
        proc.wait(timeout=DEADLINE_S)


def image_web_root(repo):
    """The --web-root of deploy/Containerfile's CMD: where the image has the
    board page."""
    text = open(os.path.join(repo, "deploy", "Containerfile")).read()
    m = re.search(r'^CMD \[[^]]*"--web-root",\s*"([^"]+)"', text, re.M)
    if not m:
        fail("deploy/Containerfile's CMD passes no --web-root")
    return m.group(1)


def load(k8s):
    """{kind: [documents]} of every file in deploy/k8s, and the
    kustomization's resources."""
    docs = {}
    for f in sorted(os.listdir(k8s)):
        if not f.endswith(".yaml"):
            continue
        with open(os.path.join(k8s, f)) as stream:
            for d in yaml.safe_load_all(stream):
                d["_file"] = f
                docs.setdefault(d["kind"], []).append(d)
    return docs


def flag(args, name):
    """The value after `name` in args (or in --name=value form), or None."""
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


def subset(selector, labels):
    return bool(selector) and all(labels.get(k) == v
                                  for k, v in selector.items())


def check(docs, names, served, help_text, web_root):
    """Every disagreement found, as messages (empty = all agree)."""
    errors = []
    kust = docs["Kustomization"][0]
    (dep,) = docs["Deployment"]
    (secret,) = docs["Secret"]
    for r in kust["resources"]:
        if r not in {d["_file"] for ds in docs.values() for d in ds}:
            errors.append("kustomization lists missing file " + r)
    if secret["_file"] in kust["resources"]:
        errors.append("the example Secret is in kustomization.yaml")
    spec = dep["spec"]
    if spec.get("replicas") != 3:
        errors.append("replicas %r, want 3" % spec.get("replicas"))
    pod = spec["template"]["spec"]
    labels = spec["template"]["metadata"]["labels"]
    if not subset(spec["selector"]["matchLabels"], labels):
        errors.append("Deployment selector does not match the pod labels")
    (c,) = pod["containers"]
    args = c.get("args", [])
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    grpc_port = ports.get("grpc")
    listen = flag(args, "--listen") or ""
    if not listen.endswith(":%s" % grpc_port):
        errors.append("--listen %r is not the grpc containerPort %r" %
                      (listen, grpc_port))
    metrics = flag(args, "--metrics-listen") or ""
    if "metrics" in ports and not metrics.endswith(":%s" % ports["metrics"]):
        errors.append("--metrics-listen %r is not the metrics port %r" %
                      (metrics, ports["metrics"]))
    web = flag(args, "--web-listen") or ""
    if "web" not in ports or not web.endswith(":%s" % ports["web"]):
        errors.append("--web-listen %r is not the web containerPort %r" %
                      (web, ports.get("web")))
    health = flag(args, "--health-listen") or ""
    health_port = ports.get("health")
    if health_port is None or not health.endswith(":%s" % health_port):
        errors.append("--health-listen %r is not the health containerPort "
                      "%r" % (health, health_port))
    # TLS from a mounted kubernetes.io/tls Secret.
    secrets = {v["name"]: v["secret"].get("secretName")
               for v in pod.get("volumes", []) if "secret" in v}
    mounts = {m["mountPath"].rstrip("/"): m["name"]
              for m in c.get("volumeMounts", [])}
    for name, key in (("--tls-cert-file", "tls.crt"),
                      ("--tls-key-file", "tls.key")):
        path = flag(args, name) or ""
        folder, _, base = path.rpartition("/")
        if base != key or mounts.get(folder) not in secrets:
            errors.append("%s %r is not the key %s of a mounted Secret" %
                          (name, path, key))
    page = flag(args, "--web-root")
    if page != web_root:
        errors.append("--web-root %r is not where the image has the page, %r "
                      "(deploy/Containerfile's CMD)" % (page, web_root))
    if flag(args, "--storage") != "postgres":
        errors.append("args lack --storage postgres")
    for a in args:
        name = a.split("=", 1)[0]
        if name.startswith("--") and not re.search(
                r"(^|[\s,])%s\b" % re.escape(name), help_text):
            errors.append("mancalad --help has no flag " + name)

    want = {"startupProbe": names["liveness"],
            "livenessProbe": names["liveness"],
            "readinessProbe": names["readiness"]}
    for probe, service in want.items():
        g = c.get(probe, {}).get("grpc")
        if g is None:
            errors.append("%s is not a native gRPC probe" % probe)
            continue
        if g.get("port") != health_port:
            errors.append("%s port %r, container health port %r" %
                          (probe, g.get("port"), health_port))
        got = g.get("service", "")
        if got != service:
            errors.append("%s asks health name %r, want %r" %
                          (probe, got, service))
        if served.get(got) != "SERVING":
            errors.append("%s: mancalad answers %s for health name %r" %
                          (probe, served.get(got, "NOT_FOUND"), got))

    env = {e["name"]: e for e in c.get("env", [])}
    ref = env.get("MANCALAD_DATABASE_URL", {}).get("valueFrom", {}).get(
        "secretKeyRef", {})
    if ref.get("name") != secret["metadata"]["name"]:
        errors.append("MANCALAD_DATABASE_URL names Secret %r, example is %r" %
                      (ref.get("name"), secret["metadata"]["name"]))
    keys = set(secret.get("stringData", {})) | set(secret.get("data", {}))
    if ref.get("key") not in keys:
        errors.append("MANCALAD_DATABASE_URL reads key %r; the Secret has %s"
                      % (ref.get("key"), sorted(keys)))
    for k in keys:
        value = secret.get("stringData", {}).get(k, "")
        if not value.startswith("postgresql://"):
            errors.append("Secret key %r is not a postgresql:// URL" % k)

    sleep = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get(
        "seconds")
    drain = flag(args, "--drain-seconds")
    if sleep is None or drain is None:
        errors.append("no preStop sleep or no --drain-seconds")
    else:
        need = sleep + float(drain) + CALLS_CUTOFF_S
        grace = pod.get("terminationGracePeriodSeconds", 30)
        if grace < need:
            errors.append("terminationGracePeriodSeconds %r < preStop %r + "
                          "drain %s + %d" % (grace, sleep, drain,
                                             CALLS_CUTOFF_S))

    ctx = dict(pod.get("securityContext", {}))
    ctx.update(c.get("securityContext", {}))
    for key, value in (("runAsNonRoot", True),
                       ("readOnlyRootFilesystem", True),
                       ("allowPrivilegeEscalation", False)):
        if ctx.get(key) is not value:
            errors.append("securityContext.%s is not %r" % (key, value))
    res = c.get("resources", {})
    for part, keys in (("requests", ("cpu", "memory")),
                       ("limits", ("memory",))):
        for k in keys:
            if k not in res.get(part, {}):
                errors.append("resources.%s.%s missing" % (part, k))

    services = docs.get("Service", [])
    if not any(s["spec"].get("clusterIP") == "None" for s in services):
        errors.append("no headless Service")
    if not any(s["spec"].get("type", "ClusterIP") == "ClusterIP" and
               s["spec"].get("clusterIP") != "None" for s in services):
        errors.append("no ClusterIP Service")
    for s in services:
        name = s["metadata"]["name"]
        if not subset(s["spec"].get("selector", {}), labels):
            errors.append("Service %s selects other pods" % name)
        for p in s["spec"]["ports"]:
            t = p.get("targetPort", p["port"])
            if t not in ports and t not in ports.values():
                errors.append("Service %s targets port %r, not a container "
                              "port" % (name, t))
    for pdb in docs.get("PodDisruptionBudget", []):
        if not subset(pdb["spec"]["selector"]["matchLabels"], labels):
            errors.append("PodDisruptionBudget selects other pods")
    if not docs.get("PodDisruptionBudget"):
        errors.append("no PodDisruptionBudget")
    return errors


def container(docs):
    return docs["Deployment"][0]["spec"]["template"]["spec"]["containers"][0]


def wrong_edits():
    """(what, edit of a copy of the docs) that the check must report."""
    def probe_port(d):
        container(d)["readinessProbe"]["grpc"]["port"] += 1

    def readiness_name(d):
        container(d)["readinessProbe"]["grpc"]["service"] = "ready"

    def liveness_name(d):
        container(d)["livenessProbe"]["grpc"]["service"] = \
            container(d)["readinessProbe"]["grpc"]["service"]

    def secret_key(d):
        s = d["Secret"][0]
        s["stringData"] = {"dsn": "postgresql://x@y/z"}

    def selector(d):
        d["Service"][0]["spec"]["selector"] = {"app.kubernetes.io/name": "x"}

    def pdb_selector(d):
        d["PodDisruptionBudget"][0]["spec"]["selector"]["matchLabels"] = {
            "app.kubernetes.io/name": "mancala"}

    def target_port(d):
        d["Service"][0]["spec"]["ports"][0]["targetPort"] = "grcp"

    def listen_port(d):
        c = container(d)
        i = c["args"].index("--listen")
        c["args"][i + 1] = "0.0.0.0:50052"

    def web_root(d):
        c = container(d)
        i = c["args"].index("--web-root")
        c["args"][i + 1] = "/usr/share/mancala-server/web"

    def probe_on_tls_port(d):
        container(d)["livenessProbe"]["grpc"]["port"] = 50051

    def tls_unmounted(d):
        c = container(d)
        c["volumeMounts"] = [m for m in c["volumeMounts"]
                             if m["mountPath"] != "/etc/mancala/tls"]

    def grace(d):
        d["Deployment"][0]["spec"]["template"]["spec"][
            "terminationGracePeriodSeconds"] = 5

    return [("readiness probe port", probe_port),
            ("readiness health name", readiness_name),
            ("liveness on the readiness name", liveness_name),
            ("Secret key", secret_key), ("Service selector", selector),
            ("PDB selector", pdb_selector),
            ("Service target port", target_port),
            ("--listen port", listen_port), ("--web-root", web_root),
            ("liveness probe on the TLS port", probe_on_tls_port),
            ("TLS Secret mount", tls_unmounted),
            ("grace period", grace)]


def main():
    mancalad, repo = sys.argv[1], sys.argv[2]
    yamllint = sys.argv[3] if len(sys.argv) > 3 else "yamllint"
    k8s = os.path.join(repo, "deploy", "k8s")
    lint = subprocess.run(
        [yamllint, "--strict", "-c", os.path.join(k8s, ".yamllint"), k8s],
        capture_output=True, text=True)
    if lint.returncode != 0:
        fail("yamllint:\n" + lint.stdout + lint.stderr)
    names = health_names(repo)
    docs = load(k8s)
    probe_names = {container(docs)[p]["grpc"].get("service", "")
                   for p in ("startupProbe", "livenessProbe",
                             "readinessProbe")}
    served = served_names(mancalad, set(names.values()) | probe_names)
    help_text = subprocess.run([mancalad, "--help"], capture_output=True,
                               text=True).stdout
    web_root = image_web_root(repo)
    errors = check(docs, names, served, help_text, web_root)
    if errors:
        fail("deploy/k8s disagrees with itself or the server:\n  " +
             "\n  ".join(errors))
    for what, edit in wrong_edits():
        wrong = copy.deepcopy(docs)
        edit(wrong)
        if not check(wrong, names, served, help_text, web_root):
            fail("the check did not notice a wrong " + what)
    print("PASS: yamllint clean; TLS from a mounted Secret; probes on the "
          "plaintext health port %d ask %s (mancalad serving TLS: %s); "
          "%d wrong edits all caught" %
          (container(docs)["readinessProbe"]["grpc"]["port"],
           sorted(probe_names), served, len(wrong_edits())))


if __name__ == "__main__":
    main()
