"""Gunicorn settings for Segnapunti (``gunicorn -c deploy/gunicorn.conf.py config.wsgi``)."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = 30
graceful_timeout = 30
keepalive = 5
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Import Django once, in the master, and fork the workers from it: a start or restart costs one
# import instead of one per worker, and a worker recycled by max_requests answers at once
# instead of re-importing everything while its share of requests waits (bench/load.py measures
# both). Nothing opens a database connection at import time, so no connection is shared.
preload_app = True
