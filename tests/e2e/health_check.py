#!/usr/bin/python3
"""Prints the grpc.health.v1 status of the server at ADDRESS for SERVICE
(default "", the whole server; docs/api.md "Health" lists mancalad's names).

Usage: health_check.py HOST:PORT [SERVICE]
Prints SERVING, NOT_SERVING, UNKNOWN, NOT_FOUND (a name the server does not
register) or UNREACHABLE. No generated stubs: HealthCheckRequest has one
field, `service` (field 1, string), and the response's only field is
`status` (field 1, varint), so the bytes are written and read directly.
Other tests import check().
"""
import sys

import grpc

NAMES = {0: "UNKNOWN", 1: "SERVING", 2: "NOT_SERVING"}


def check(channel, service="", timeout=5):
    """The status name of `service` on `channel` (see above)."""
    name = service.encode()
    request = (b"\x0a" + bytes([len(name)]) + name) if name else b""
    call = channel.unary_unary("/grpc.health.v1.Health/Check")
    try:
        reply = call(request, timeout=timeout)
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.NOT_FOUND:
            return "NOT_FOUND"
        return "UNREACHABLE"
    status = reply[1] if len(reply) >= 2 and reply[0] == 0x08 else 0
    return NAMES.get(status, "UNKNOWN")


def main():
    service = sys.argv[2] if len(sys.argv) > 2 else ""
    with grpc.insecure_channel(sys.argv[1]) as channel:
        print(check(channel, service))


if __name__ == "__main__":
    main()
