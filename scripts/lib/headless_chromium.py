"""Headless Chromium over the DevTools protocol, for the page checks (check-report,
check-player). Python's standard library only.

Chromium (Debian's `chromium`; override with CHROMIUM=/path) runs headless with
--remote-debugging-pipe: the protocol as NUL-terminated JSON over file descriptors 3 and 4,
so no websocket client and no port are needed. With the page's Network, Runtime and Log
domains enabled before it loads, `problems()` lists every request other than the page itself
(and data: URLs), console error, uncaught exception and error log entry. Runs as root in a
container (--no-sandbox); gives up after `timeout` seconds.
"""
import base64, json, os, select, shutil, signal, subprocess, sys, tempfile, time


class BrowserError(Exception):
    """The browser could not be driven (exit status 2 of the checks)."""


def find_chromium():
    c = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not c or not os.access(c, os.X_OK):
        raise BrowserError(f"chromium not found{' at ' + c if c else ''} (install Debian's chromium: scripts/setup, or set CHROMIUM=/path)")
    return c


class Page:
    """One page of a fresh headless Chromium: `open(path)`, `evaluate(js)`, `screenshot(path)`,
    `problems()`, `close()`."""

    def __init__(self, timeout=30.0, width=1280, height=900):
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout
        self.width, self.height = width, height
        self.profile = tempfile.mkdtemp(prefix="strata-headless-")
        to_r, self.to_w = os.pipe()          # we write commands; Chromium reads fd 3
        self.from_r, from_w = os.pipe()      # Chromium writes fd 4; we read
        hi = [os.dup(fd) for fd in (to_r, from_w)]  # away from 3 and 4 before the child's dup2

        def child_fds():
            os.dup2(hi[0], 3)
            os.dup2(hi[1], 4)

        args = [find_chromium(), "--headless", "--no-sandbox", "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-default-apps", "--disable-features=Translate,MediaRouter,OptimizationHints",
                "--mute-audio", "--hide-scrollbars", "--force-color-profile=srgb", f"--window-size={width},{height}", "about:blank"]
        self.log = tempfile.TemporaryFile()
        # Python's descriptors are close-on-exec; the child keeps only 0-2 and the 3 and 4 dup2'd here.
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, close_fds=False,
                                     preexec_fn=child_fds, start_new_session=True)
        for fd in [to_r, from_w] + hi:
            os.close(fd)
        self.buffer = b""
        self.events = []
        self.next_id = 0
        self.session = None
        self.url = None

    # -- the protocol

    def browser_log(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-3000:]

    def fail(self, msg):
        self.close()
        tail = self.browser_log().strip()
        raise BrowserError(msg + (f"\nchromium's output (tail):\n{tail}" if tail else ""))

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read_message(self, until):
        while b"\0" not in self.buffer:
            left = until - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.from_r], [], [], min(left, 0.5))
            if not ready:
                if self.proc.poll() is not None:
                    self.fail(f"chromium exited with status {self.proc.returncode}")
                continue
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                self.fail("chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        i = self.send(method, params, session)
        while True:
            msg = self.read_message(self.deadline)
            if msg is None:
                self.fail(f"timed out after {self.timeout:.0f} s waiting for {method}")
            if msg.get("id") == i:
                if "error" in msg:
                    self.fail(f"{method}: {msg['error'].get('message')}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_event(self, name, until):
        for e in self.events:
            if e["method"] == name and e.get("sessionId") == self.session:
                return e
        while True:
            msg = self.read_message(until)
            if msg is None:
                return None
            if "method" in msg:
                self.events.append(msg)
                if msg["method"] == name and msg.get("sessionId") == self.session:
                    return msg

    def drain(self, seconds):
        until = min(self.deadline, time.monotonic() + seconds)
        while self.read_message(until) is not None:
            pass

    # -- the page

    def open(self, path):
        """Loads the file; its requests, console and errors are recorded from the start."""
        self.url = "file://" + os.path.abspath(path)
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(f"{domain}.enable", {}, self.session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False}, self.session)
        self.events.clear()  # about:blank's own events are not the page's
        self.call("Page.navigate", {"url": self.url}, self.session)
        if self.wait_event("Page.loadEventFired", self.deadline) is None:
            self.fail(f"the page did not finish loading within {self.timeout:.0f} s")
        self.call("Runtime.evaluate", {"expression": "document.fonts.ready.then(() => true)", "awaitPromise": True}, self.session)
        self.drain(0.5)  # late console messages and requests

    def evaluate(self, expression, await_promise=False):
        """The value of a JavaScript expression (returned by value)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise}, self.session)
        if "exceptionDetails" in result:
            self.fail("a page check threw: " + json.dumps(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def screenshot(self, path, max_height=16000):
        """A full-page PNG; returns its height."""
        metrics = self.call("Page.getLayoutMetrics", {}, self.session)
        size = metrics.get("cssContentSize") or metrics.get("contentSize")
        height = min(int(size["height"]) + 1, max_height)
        png = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                   "clip": {"x": 0, "y": 0, "width": self.width, "height": height, "scale": 1}},
                        self.session)
        with open(path, "wb") as f:
            f.write(base64.b64decode(png["data"]))
        return height

    def problems(self):
        """Requests beyond the page (and data: URLs), console errors, exceptions, error logs."""
        self.drain(0.2)
        out, requests = [], []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if e.get("sessionId") != self.session:
                continue
            if m == "Network.requestWillBeSent":
                url = p.get("request", {}).get("url", "")
                if url != self.url and not url.startswith("data:"):
                    requests.append(url)
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                out.append(f"console {p.get('type')}: {text}")
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("uncaught exception: " + (d.get("exception", {}).get("description") or d.get("text", "")))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                entry = p["entry"]
                out.append(f"console error ({entry.get('source')}): {entry.get('text')}" + (f" [{entry['url']}]" if entry.get("url") else ""))
        for url in requests:
            out.append(f"network request: {url}")
        self.requests = requests
        return out

    def close(self):
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close")
                    self.proc.wait(timeout=5)
                except (subprocess.TimeoutExpired, OSError):
                    pass
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait()
        except ProcessLookupError:
            pass
        shutil.rmtree(self.profile, ignore_errors=True)
