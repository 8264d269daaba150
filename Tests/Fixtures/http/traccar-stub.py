#!/usr/bin/python3
"""A stand-in for a Traccar server's OsmAnd port, for the HTTP uplink's tests.

Listens on 127.0.0.1 (port 0: any free one), writes the port it got to the READY file, records
every request as one JSON line in the RECORD file (method, path and query, the client's port,
User-Agent, bytes of the request line and headers) and answers the requests in the order they
arrive by PLAN, a comma-separated list; after the plan, 200:
  200 an empty 200 OK          hang  never answers (until killed)
  400 400, body "unknown device 42" then a second line
  500 500, body "internal error"   reset  closes the connection at once, with an RST
With CERT and KEY (PEM files) it speaks https.
Usage: traccar-stub.py PORT READY RECORD [PLAN [CERT KEY]]
"""
import json
import os
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, ready, record = int(sys.argv[1]), sys.argv[2], sys.argv[3]
plan = sys.argv[4].split(",") if len(sys.argv) > 4 and sys.argv[4] else []
lock = threading.Lock()
count = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as Traccar's server

    def log_message(self, *args):
        pass

    def answer(self):
        global count
        with lock:
            answer = plan[count] if count < len(plan) else "200"
            count += 1
            head = len(self.raw_requestline) + 2 + sum(len(k) + len(v) + 4 for k, v in self.headers.items())
            entry = {
                "method": self.command,
                "path": self.path,
                "clientPort": self.client_address[1],
                "userAgent": self.headers.get("User-Agent", ""),
                "headerBytes": head,
                "headers": [k for k, _ in self.headers.items()],
            }
            with open(record, "a") as out:
                out.write(json.dumps(entry) + "\n")
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if answer == "hang":
            time.sleep(3600)
        elif answer == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
        else:
            status = int(answer)
            body = {200: b"", 400: b"unknown device 42\nsecond line\n", 500: b"internal error\n"}.get(status, b"")
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    do_GET = answer
    do_POST = answer


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", port), Handler)
if len(sys.argv) > 6:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[5], sys.argv[6])
    server.socket = context.wrap_socket(server.socket, server_side=True)
with open(ready + ".tmp", "w") as out:
    out.write(str(server.server_address[1]))
os.rename(ready + ".tmp", ready)
server.serve_forever()
