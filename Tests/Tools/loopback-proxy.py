#!/usr/bin/env python3
"""A forward HTTP proxy on loopback for vplay's proxy tests, which is also the origin of the hosts it is asked for
(they do not resolve, so a request that bypassed the proxy fails).

    loopback-proxy.py PORTFILE LOGFILE ROUTES.json

It answers absolute-form requests (`GET http://host/path`, what FFmpeg sends) and CONNECT tunnels (what
async-http-client opens, for http URLs too), serving the requests inside the tunnel itself. Each request it sees is
appended to LOGFILE as one line: `CONNECT host:port` or `GET http://host/path?query` (the URL rebuilt from the Host
header inside a tunnel). ROUTES.json maps a URL to a file to serve (with byte ranges); any other URL gets 204.
The listening port is written to PORTFILE once it listens.
"""
import http.server
import json
import os
import re
import socketserver
import sys
import threading

port_file, log_file, routes_file = sys.argv[1:4]
with open(routes_file) as f:
    ROUTES = json.load(f)
LOCK = threading.Lock()


def log(line):
    with LOCK, open(log_file, "a") as f:
        f.write(line + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    tunnel = None  # "host:port" inside a CONNECT tunnel

    def log_message(self, *args):
        pass

    def do_CONNECT(self):
        log("CONNECT " + self.path)
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        self.tunnel = self.path
        self.close_connection = False

    def url(self):
        """The URL asked for, its default port left out (FFmpeg writes `http://host:80/path`)."""
        if self.path.startswith("http://"):
            rest = self.path[len("http://"):]
            host, _, path = rest.partition("/")
            return "http://" + host.removesuffix(":80") + "/" + path
        host = self.headers.get("Host") or self.tunnel or "unknown"
        return "http://" + host.removesuffix(":80") + self.path

    def do_GET(self):
        self.answer(body=True)

    def do_HEAD(self):
        self.answer(body=False)

    def answer(self, body):
        url = self.url()
        log(self.command + " " + url)
        path = ROUTES.get(url)
        if path is None:
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with open(path, "rb") as f:
            data = f.read()
        status, start, end = 200, 0, len(data) - 1
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        if match and data:
            first, last = match.groups()
            if first:
                start, end = int(first), min(int(last) if last else len(data) - 1, len(data) - 1)
            elif last:
                start = max(0, len(data) - int(last))
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(data))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status = 206
        self.send_response(status)
        self.send_header("Content-Type", "application/xml" if path.endswith(".xml") else "video/mp4")
        self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, len(data)))
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        if body:
            try:
                self.wfile.write(data[start:end + 1])
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
