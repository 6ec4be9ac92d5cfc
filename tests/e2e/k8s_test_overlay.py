#!/usr/bin/env python3
"""The test overlay of deploy/k8s for `podman kube play`
(container_image_test.sh): the Deployment as deploy/k8s/deployment.yaml
has it, with only what a test on one machine must change:

- one replica, the locally built image (never pulled);
- the host's network, so the pod reaches the throwaway PostgreSQL cluster
  on loopback, and free loopback ports instead of 50051, 9464, 8080 and
  8081 (the --listen, --metrics-listen, --web-listen and --health-listen
  flags and the probes; the container port list goes, which podman
  refuses on the host's network);
- the Secret's name, with a podman secret holding the database URL;
- the TLS Secret's volume, as a hostPath of the test's certificate folder
  (tls.crt, tls.key): podman 4.3's kube play mounts no Secret volumes.

Every other field (args, probes' health names, security context, volumes)
stays as the manifest has it. Prints the Deployment as YAML; writes the
Secret's data (the form podman's secretKeyRef reads from `podman secret
create`) to --secret-out.

Usage: k8s_test_overlay.py DEPLOY_K8S_DIR --image IMAGE --grpc-port P
         --metrics-port M --web-port W --health-port H --tls-dir DIR
         --secret-name NAME --database-url URL --secret-out FILE
"""
import argparse
import base64
import json
import os
import sys

import yaml


def set_flag(args, name, value):
    """Replaces the value after `name` in args; fails if it is missing."""
    i = args.index(name)
    args[i + 1] = value


def main():
    p = argparse.ArgumentParser()
    p.add_argument("k8s_dir")
    for flag in ("--image", "--secret-name", "--database-url", "--secret-out",
                 "--tls-dir"):
        p.add_argument(flag, required=True)
    p.add_argument("--grpc-port", type=int, required=True)
    p.add_argument("--metrics-port", type=int, required=True)
    p.add_argument("--web-port", type=int, required=True)
    p.add_argument("--health-port", type=int, required=True)
    o = p.parse_args()

    with open(os.path.join(o.k8s_dir, "deployment.yaml")) as f:
        deployment = yaml.safe_load(f)
    spec = deployment["spec"]
    spec["replicas"] = 1
    pod = spec["template"]["spec"]
    pod["hostNetwork"] = True
    (container,) = pod["containers"]
    container["image"] = o.image
    container["imagePullPolicy"] = "Never"
    set_flag(container["args"], "--listen", "127.0.0.1:%d" % o.grpc_port)
    set_flag(container["args"], "--metrics-listen",
             "127.0.0.1:%d" % o.metrics_port)
    set_flag(container["args"], "--web-listen", "127.0.0.1:%d" % o.web_port)
    set_flag(container["args"], "--health-listen",
             "127.0.0.1:%d" % o.health_port)
    # On the host's network the flags above are the ports; podman refuses
    # a container port list there (it would map them).
    del container["ports"]
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        container[probe]["grpc"]["port"] = o.health_port
    tls = [v for v in pod["volumes"] if v["name"] == "tls" and "secret" in v]
    if len(tls) != 1:
        sys.exit("deployment.yaml: no Secret volume named tls")
    del tls[0]["secret"]
    tls[0]["hostPath"] = {"path": o.tls_dir, "type": "Directory"}
    for env in container["env"]:
        ref = env.get("valueFrom", {}).get("secretKeyRef")
        if ref:
            ref["name"] = o.secret_name

    # The Secret's keys (secret.example.yaml) with the test's URL, as
    # podman 4.3 reads a secretKeyRef's podman secret: a JSON object of
    # base64 values, the Secret's `data`.
    with open(os.path.join(o.k8s_dir, "secret.example.yaml")) as f:
        keys = set(yaml.safe_load(f)["stringData"])
    if keys != {"url"}:
        sys.exit("secret.example.yaml: keys %s, not just url" % sorted(keys))
    with open(o.secret_out, "w") as f:
        json.dump({"url": base64.b64encode(o.database_url.encode()).decode()}, f)
    yaml.safe_dump(deployment, sys.stdout)


if __name__ == "__main__":
    main()
