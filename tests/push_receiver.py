"""A push service on this machine for the Web Push tests: an HTTPS server (a certificate made
for 127.0.0.1, trusted by ``requests`` through ``REQUESTS_CA_BUNDLE``) that takes each message
as a push service would, checks its VAPID signature (RFC 8292) and decrypts it as the browser
would (RFC 8291, aes128gcm, with ``http_ece``) with the device's keys, made here: an ECDH P-256
key pair and a random 16-byte auth secret. ``answer`` is what it replies (201; 410 says the
subscription is gone)."""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import os
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's side of one subscription: its keys, and what it was sent."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    received: list[dict] = field(default_factory=list)

    def subscription(self) -> dict:
        """What ``PushSubscription.toJSON()`` gives the page."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}


@dataclass
class Delivery:
    path: str
    headers: dict
    body: bytes


class Receiver:
    def __init__(self, directory) -> None:
        self.deliveries: list[Delivery] = []
        self.devices: dict[str, Device] = {}
        self.answer = 201
        self.cert = directory / "receiver.pem"
        context = self._tls(directory)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.deliveries.append(Delivery(self.path, dict(self.headers), body))
                self.send_response(receiver.answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.origin = f"https://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _tls(self, directory) -> ssl.SSLContext:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(
                x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False,
            )
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )
        self.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        keyfile = directory / "receiver-key.pem"
        keyfile.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, keyfile)
        return context

    def device(self) -> Device:
        device = Device(f"{self.origin}/push/{len(self.devices) + 1}")
        self.devices[f"/push/{len(self.devices) + 1}"] = device
        return device

    def read(self, delivery: Delivery, vapid_public_key: str) -> dict:
        """The message as the browser reads it, after the checks a push service makes: the
        VAPID JWT signed by the site's key for this origin, then the aes128gcm body decrypted
        with the device's keys."""
        headers = {k.lower(): v for k, v in delivery.headers.items()}
        assert headers["content-encoding"] == "aes128gcm"
        assert int(headers["ttl"]) > 0
        scheme, _, params = headers["authorization"].partition(" ")
        assert scheme == "vapid"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts["k"] == vapid_public_key
        token = parts["t"]
        signed, _, signature = token.rpartition(".")
        raw = unb64(signature)
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"]))
        key.verify(
            encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
            signed.encode(),
            ec.ECDSA(hashes.SHA256()),
        )
        claims = json.loads(unb64(signed.split(".")[1]))
        assert claims["aud"] == self.origin
        device = self.devices[delivery.path]
        text = http_ece.decrypt(
            delivery.body, private_key=device.key, auth_secret=device.auth, version="aes128gcm"
        )
        return json.loads(text)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
