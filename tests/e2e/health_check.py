#!/usr/bin/python3
"""Prints the grpc.health.v1 status of the server at ADDRESS (whole server).

Usage: health_check.py HOST:PORT
Prints SERVING, NOT_SERVING, UNKNOWN or UNREACHABLE. No generated stubs:
HealthCheckRequest{service: ""} is the empty message, and the response's
only field is `status` (field 1, varint), so the bytes are read directly.
"""
import sys

import grpc

NAMES = {0: "UNKNOWN", 1: "SERVING", 2: "NOT_SERVING"}


def main():
    with grpc.insecure_channel(sys.argv[1]) as channel:
        check = channel.unary_unary("/grpc.health.v1.Health/Check")
        try:
            reply = check(b"", timeout=5)
        except grpc.RpcError as e:
            print("UNREACHABLE", e.code())
            return
        status = reply[1] if len(reply) >= 2 and reply[0] == 0x08 else 0
        print(NAMES.get(status, "UNKNOWN"))


if __name__ == "__main__":
    main()
