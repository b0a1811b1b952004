import Foundation
import StrataGeometry

/// A scene's player: one self-contained HTML file (its frames embedded, no network: a
/// Content-Security-Policy forbids every fetch) that draws the recorded frames on a canvas,
/// with play / pause, a scrubber, frame stepping and the frame-time timeline of every frame
/// below. The motion window plays at the scene's frame rate; a click on the timeline shows the
/// nearest recorded frame (the slowest frames are marked red, the window shaded).
public struct PlayerDocument {
    public var scene: String
    public var description: String
    /// Every frame's time, ms.
    public var frameTimes: [Float]
    /// The recorded frames, by index: key frames, and the motion window's changes.
    public var frames: [PlayerFrame]
    public var slowFrames: Set<Int>
    /// The target-space rectangle shown.
    public var viewport: CGRect
    /// What was decimated or approximated.
    public var notes: [String]
    /// The paths the frames draw (path id k + 1 is `paths[k]`).
    var paths: [[UInt8]]
    /// The frame indices of the motion window.
    public var window: ClosedRange<Int>?

    init(scene: String, description: String, frameTimes: [Float], frames: [PlayerFrame], slowFrames: Set<Int>,
         viewport: CGRect, notes: [String], paths: [[UInt8]], window: ClosedRange<Int>?) {
        self.scene = scene
        self.description = description
        self.frameTimes = frameTimes
        self.frames = frames
        self.slowFrames = slowFrames
        self.viewport = viewport
        self.notes = notes
        self.paths = paths
        self.window = window
    }

    /// Bytes of the recorded frames and paths (the page holds them in base64: 4/3 of it).
    public var recordedBytes: Int { frames.reduce(0) { $0 + $1.byteCount } + paths.reduce(0) { $0 + $1.count } }

    /// The page.
    public func html() -> String {
        var blob: [UInt8] = []
        blob.reserveCapacity(recordedBytes)
        for p in paths { blob.append(contentsOf: p) }
        let pathBytes = blob.count
        var entries: [[String: Any]] = []
        var windowKept: [Int] = []
        for (k, f) in frames.enumerated() {
            entries.append(["index": f.index, "time": f.time, "ms": Double(f.frameMilliseconds), "key": f.isKey,
                            "offset": blob.count, "length": f.byteCount, "slow": slowFrames.contains(f.index)])
            blob.append(contentsOf: f.bytes)
            if let window, window.contains(f.index) { windowKept.append(k) }
        }
        var meta: [String: Any] = [
            "scene": scene, "description": description, "notes": notes,
            "viewport": [Double(viewport.origin.x), Double(viewport.origin.y), Double(viewport.width), Double(viewport.height)],
            "frames": entries, "frameTimes": frameTimes.map { Double($0) }, "budget60": 1000.0 / 60, "budget120": 1000.0 / 120,
            "paths": ["offset": 0, "length": pathBytes, "count": paths.count],
        ]
        if let first = windowKept.first, let last = windowKept.last { meta["window"] = [first, last] }
        let json = (try? JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let nonce = Self.nonce()
        let policy = "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
        var h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        h += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(Self.escape(policy))\">"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"referrer\" content=\"no-referrer\">"
        h += "<meta name=\"strata-player-frames\" content=\"\(frames.count)\">"
        h += "<title>\(Self.escape(scene)) · Strata scene player</title><style>\(Self.css)</style></head><body><main>"
        h += "<h1>\(Self.escape(scene))</h1><p class=\"desc\">\(Self.escape(description))</p>"
        for n in notes { h += "<p class=\"note\">\(Self.escape(n))</p>" }
        h += """
        <div class="stage"><canvas id="player-canvas" width="800" height="600" aria-label="the scene's layers at the shown frame"></canvas></div>
        <div class="controls">
        <button id="player-prev" title="previous recorded frame (←)">◀◀</button>
        <button id="player-play" title="play / pause (space): the motion window at the scene's frame rate">▶ play</button>
        <button id="player-next" title="next recorded frame (→)">▶▶</button>
        <input id="player-scrubber" type="range" min="0" max="\(max(frames.count - 1, 0))" value="0" step="1" aria-label="recorded frame">
        <span id="player-label"></span>
        </div>
        <div class="timeline"><canvas id="player-timeline" width="1200" height="140" aria-label="frame times; click to show a frame"></canvas>
        <p class="caption">Every frame's time (ms, log scale), dashed at 8.33 and 16.67 ms; shaded: the motion window (every frame, played at the scene's rate); ticks: recorded frames (red: among the slowest). Click to show the nearest recorded frame.</p></div>
        <p class="foot">Written by strata-bench scene player. One self-contained file: nothing is fetched. Frames are the engine's render snapshots, drawn here by their affine transforms.</p>
        """
        h += "</main><script type=\"application/json\" id=\"player-meta\">\(Self.jsonInScript(json))</script>"
        h += "<script type=\"text/plain\" id=\"player-data\">\(Data(blob).base64EncodedString())</script>"
        h += "<script nonce=\"\(nonce)\">\(Self.script.replacingOccurrences(of: "</", with: "<\\/"))</script></body></html>\n"
        return h
    }

    /// Writes the page to `path`.
    public func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(html().utf8).write(to: url, options: .atomic)
    }

    static func nonce() -> String {
        var g = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }).base64EncodedString()
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// JSON safe inside a script element (no `</script>` or `<!--`).
    static func jsonInScript(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }

    static let css = """
    :root{color-scheme:light dark;font:14px/1.4 system-ui,sans-serif}body{margin:0;background:Canvas;color:CanvasText}
    main{max-width:1240px;margin:0 auto;padding:16px}h1{font-size:20px;margin:0 0 4px}.desc{margin:0 0 8px;opacity:.8}
    .note{margin:4px 0;padding:4px 8px;border-left:3px solid #c80;background:rgba(200,130,0,.08)}
    .stage{border:1px solid rgba(128,128,128,.4);display:inline-block;background:#fff}
    canvas{display:block}.controls{display:flex;gap:8px;align-items:center;margin:8px 0}
    #player-scrubber{flex:1}#player-label{font-variant-numeric:tabular-nums;min-width:330px}
    button{font:inherit;padding:3px 10px}.timeline canvas{width:100%;height:140px;cursor:pointer;border:1px solid rgba(128,128,128,.4)}
    .caption,.foot{font-size:12px;opacity:.75;margin:4px 0}
    """

    /// The page's script: decodes frames (`PlayerFrame`'s layout) and draws them.
    static let script = #"""
    (() => {
      'use strict';
      const meta = JSON.parse(document.getElementById('player-meta').textContent);
      const raw = atob(document.getElementById('player-data').textContent.trim());
      const bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
      const frames = meta.frames;
      const canvas = document.getElementById('player-canvas'), ctx = canvas.getContext('2d');
      const tl = document.getElementById('player-timeline'), tctx = tl.getContext('2d');
      const scrub = document.getElementById('player-scrubber'), label = document.getElementById('player-label');
      const play = document.getElementById('player-play');
      const [vx, vy, vw, vh] = meta.viewport;
      const scale = Math.min(1180 / Math.max(vw, 1), 640 / Math.max(vh, 1), 4);
      canvas.width = Math.max(1, Math.ceil(vw * scale)); canvas.height = Math.max(1, Math.ceil(vh * scale));

      // A reader over one frame's bytes (PlayerEncoding.swift's format).
      function reader(offset, length) {
        const dv = new DataView(bytes.buffer, offset, length);
        let o = 0;
        const r = {
          u8: () => dv.getUint8(o++),
          u32: () => { const v = dv.getUint32(o, true); o += 4; return v; },
          f32: () => { const v = dv.getFloat32(o, true); o += 4; return v; },
          f64: () => { const v = dv.getFloat64(o, true); o += 8; return v; },
          varint: () => { let v = 0, m = 1, b; do { b = dv.getUint8(o++); v += (b & 0x7f) * m; m *= 128; } while (b & 0x80); return v; },
          get offset() { return o; },
        };
        r.zigzag = () => { const v = r.varint(); return v % 2 ? -(v + 1) / 2 : v / 2; };
        return r;
      }
      // The paths, each once: id k + 1 is paths[k + 1].
      const paths = [null];
      {
        const r = reader(meta.paths.offset, meta.paths.length);
        for (let p = 0; p < meta.paths.count; p++) {
          const path = new Path2D(), pts = [];
          let cx = 0, cy = 0, sx = 0, sy = 0;
          const count = r.u32(), f32 = r.f32;
          for (let e = 0; e < count; e++) {
            const k = r.u8();
            if (k === 0) { cx = f32(); cy = f32(); sx = cx; sy = cy; path.moveTo(cx, cy); pts.push([cx, cy, true]); }
            else if (k === 1) { cx = f32(); cy = f32(); path.lineTo(cx, cy); pts.push([cx, cy, false]); }
            else if (k === 2) { const a = f32(), b = f32(), x = f32(), y = f32(); path.quadraticCurveTo(a, b, x, y);
              for (let s = 1; s <= 8; s++) { const t = s / 8, u = 1 - t; pts.push([u*u*cx + 2*u*t*a + t*t*x, u*u*cy + 2*u*t*b + t*t*y, false]); } cx = x; cy = y; }
            else if (k === 3) { const a = f32(), b = f32(), c = f32(), d = f32(), x = f32(), y = f32(); path.bezierCurveTo(a, b, c, d, x, y);
              for (let s = 1; s <= 12; s++) { const t = s / 12, u = 1 - t; pts.push([u*u*u*cx + 3*u*u*t*a + 3*u*t*t*c + t*t*t*x, u*u*u*cy + 3*u*u*t*b + 3*u*t*t*d + t*t*t*y, false]); } cx = x; cy = y; }
            else { path.closePath(); pts.push([sx, sy, false]); cx = sx; cy = sy; }
          }
          let length = 0;
          for (let i = 1; i < pts.length; i++) if (!pts[i][2]) length += Math.hypot(pts[i][0] - pts[i-1][0], pts[i][1] - pts[i-1][1]);
          paths.push({path, length});
        }
      }

      // The items after a frame: the order (ids) and each id's quantized item. A key frame
      // applies to nothing, a delta frame to the frame just before it.
      const blank = () => ({x: 0, y: 0, a: 65536, b: 0, c: 0, d: 65536, w: 0, h: 0, op: 0, bg: 0, r: 0, bw: 0, bc: 0, sub: 0,
                            sx: 0, sy: 0, path: 0, fill: 0, stroke: 0, lw: 0, s0: 0, s1: 0, clip: 0});
      function apply(st, entry) {
        const r = reader(entry.offset, entry.length);
        r.varint(); r.f64(); r.f32();
        const kind = r.u8();
        if (kind === 0) { st.order = []; st.items = new Map(); }
        const old = st.order, order = [];
        let cursor = 0;
        for (let ops = r.u32(); ops > 0; ops--) {
          const v = r.varint(), n = Math.floor(v / 4), op = v % 4;
          if (op === 0) { for (let k = 0; k < n; k++) order.push(old[cursor + k]); cursor += n; }
          else if (op === 1) cursor += n;
          else for (let k = 0; k < n; k++) { const id = r.zigzag(); st.items.set(id, blank()); order.push(id); }
        }
        for (; cursor < old.length; cursor++) order.push(old[cursor]);
        st.order = order;
        let pos = -1;
        for (let changed = r.u32(); changed > 0; changed--) {
          pos += r.varint() + 1;
          const it = st.items.get(order[pos]), m = r.varint();
          if (m & 1) { it.x += r.zigzag(); it.y += r.zigzag(); }
          if (m & 2) it.op = r.u8();
          if (m & 4) { it.a += r.zigzag(); it.b += r.zigzag(); it.c += r.zigzag(); it.d += r.zigzag(); }
          if (m & 8) { it.w += r.zigzag(); it.h += r.zigzag(); }
          if (m & 16) it.bg = r.u32();
          if (m & 32) it.r += r.zigzag();
          if (m & 64) { it.bw += r.zigzag(); it.bc = r.u32(); it.sub = r.varint(); }
          if (m & 128) { it.sx += r.zigzag(); it.sy += r.zigzag(); it.path = r.varint(); it.fill = r.u32(); it.stroke = r.u32();
                         it.lw += r.zigzag(); it.s0 += r.zigzag(); it.s1 += r.zigzag(); }
          if (m & 256) it.clip = r.varint();
        }
      }
      // The state at recorded frame k: from the frame before when that is the one held, else
      // from the nearest key frame at or before k.
      const state = {at: -1, order: [], items: new Map()};
      function stateAt(k) {
        if (state.at === k) return state;
        let from = k;
        if (!frames[k].key && state.at !== k - 1) { while (from > 0 && !frames[from].key) from--; }
        if (frames[from].key) { state.order = []; state.items = new Map(); }
        for (let j = from; j <= k; j++) apply(state, frames[j]);
        state.at = k;
        return state;
      }
      const rgba = c => [c & 255, (c >>> 8) & 255, (c >>> 16) & 255, ((c >>> 24) & 255) / 255];
      // The items of recorded frame k, in drawing order, in pixels.
      function frame(k) {
        const st = stateAt(k), items = [];
        st.order.forEach((id, i) => {
          const q = st.items.get(id);
          const it = {id, x: q.x / 64, y: q.y / 64, a: q.a / 65536, b: q.b / 65536, c: q.c / 65536, d: q.d / 65536,
                      w: q.w / 64, h: q.h / 64, alpha: q.op / 255, r: q.r / 64, clip: q.clip ? i - q.clip : -1};
          if (q.bg) it.bg = rgba(q.bg);
          if (q.bw > 0 && q.bc) { it.bw = q.bw / 64; it.bc = rgba(q.bc); it.end = i + 1 + q.sub; }
          if (q.path && paths[q.path]) { it.path = q.path; it.bx = q.sx / 64; it.by = q.sy / 64; it.fill = rgba(q.fill); it.stroke = rgba(q.stroke);
                                          it.lw = q.lw / 64; it.s0 = q.s0 / 65536; it.s1 = q.s1 / 65536; }
          items.push(it);
        });
        return {items, paths};
      }
      function place(it) { ctx.setTransform(scale * it.a, scale * it.b, scale * it.c, scale * it.d, scale * (it.x - vx), scale * (it.y - vy)); }
      function rect(it, inset) {
        const w = Math.max(0, it.w - 2 * inset), h = Math.max(0, it.h - 2 * inset), r = Math.max(0, Math.min(it.r - inset, w / 2, h / 2));
        ctx.beginPath();
        if (r > 0 && ctx.roundRect) ctx.roundRect(inset, inset, w, h, r); else ctx.rect(inset, inset, w, h);
      }
      const css = (c, a) => `rgba(${c[0]},${c[1]},${c[2]},${c[3] * a})`;
      function clipTo(f, it) {
        const chain = [];
        for (let c = it.clip; c >= 0; c = f.items[c].clip) chain.push(f.items[c]);
        for (let j = chain.length - 1; j >= 0; j--) { place(chain[j]); rect(chain[j], 0); ctx.clip(); }
      }
      function border(f, it) {
        ctx.save(); clipTo(f, it); place(it); rect(it, it.bw / 2);
        ctx.lineWidth = it.bw; ctx.strokeStyle = css(it.bc, it.alpha); ctx.stroke(); ctx.restore();
      }
      function draw(k) {
        const f = frame(k);
        ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
        const borders = [];
        f.items.forEach((it, i) => {
          while (borders.length && borders[borders.length - 1].end <= i) border(f, borders.pop());
          if (it.alpha <= 0) return;
          ctx.save(); clipTo(f, it); place(it);
          if (it.bg) { rect(it, 0); ctx.fillStyle = css(it.bg, it.alpha); ctx.fill(); }
          if (it.path) {
            const p = f.paths[it.path];
            ctx.translate(-it.bx, -it.by);
            if (it.fill[3] > 0) { ctx.fillStyle = css(it.fill, it.alpha); ctx.fill(p.path); }
            if (it.stroke[3] > 0 && it.lw > 0 && it.s1 > it.s0) {
              ctx.lineWidth = it.lw; ctx.strokeStyle = css(it.stroke, it.alpha);
              if (it.s0 > 0 || it.s1 < 1) { ctx.setLineDash([p.length * (it.s1 - it.s0), p.length * 2 + 1]); ctx.lineDashOffset = -p.length * it.s0; }
              ctx.stroke(p.path);
            }
          }
          ctx.restore();
          if (it.bc) borders.push(it);
        });
        while (borders.length) border(f, borders.pop());
        const e = frames[k];
        label.textContent = `frame ${e.index} · t = ${e.time.toFixed(3)} s · ${e.ms.toFixed(2)} ms${e.slow ? ' (slow)' : ''} · ${f.items.length} layers${inWindow(k) ? ' · motion' : ''}`;
        scrub.value = k; shown = k; drawTimeline();
      }

      // Timeline: every frame's time, log scale; ticks at recorded frames.
      const times = meta.frameTimes;
      const lo = Math.log(Math.max(0.01, Math.min(...times.slice(0, 100000), meta.budget120) * 0.8));
      const hi = Math.log(Math.max(...times.slice(0, 100000), meta.budget60) * 1.25);
      const ty = ms => tl.height - 18 - (Math.log(Math.max(ms, 0.01)) - lo) / (hi - lo) * (tl.height - 30);
      const tx = i => 40 + i / Math.max(times.length - 1, 1) * (tl.width - 50);
      let shown = 0;
      const win = meta.window || null;
      const inWindow = k => win !== null && k >= win[0] && k <= win[1];
      function drawTimeline() {
        tctx.setTransform(1, 0, 0, 1, 0, 0); tctx.clearRect(0, 0, tl.width, tl.height);
        tctx.fillStyle = '#888'; tctx.font = '11px sans-serif';
        for (const b of [meta.budget120, meta.budget60]) {
          tctx.strokeStyle = '#c44'; tctx.setLineDash([4, 3]); tctx.beginPath(); tctx.moveTo(40, ty(b)); tctx.lineTo(tl.width - 10, ty(b)); tctx.stroke();
          tctx.fillText(b.toFixed(2) + ' ms', 0, ty(b) + 4);
        }
        tctx.setLineDash([]);
        if (win) {
          const x0 = tx(frames[win[0]].index), x1 = tx(frames[win[1]].index);
          tctx.fillStyle = 'rgba(74,122,200,.18)'; tctx.fillRect(x0 - 1, 4, Math.max(3, x1 - x0 + 2), tl.height - 18);
        }
        const step = Math.max(1, Math.floor(times.length / (tl.width - 50)));
        tctx.strokeStyle = '#4a7ac8'; tctx.beginPath();
        for (let i = 0; i < times.length; i += step) {
          let m = 0; for (let j = i; j < Math.min(i + step, times.length); j++) m = Math.max(m, times[j]);
          if (i === 0) tctx.moveTo(tx(i), ty(m)); else tctx.lineTo(tx(i), ty(m));
        }
        tctx.stroke();
        frames.forEach((e, k) => {
          tctx.fillStyle = k === shown ? '#000' : e.slow ? '#d22' : '#999';
          tctx.fillRect(tx(e.index) - (k === shown ? 1.5 : 0.5), tl.height - 14, k === shown ? 3 : 1, k === shown ? 12 : 8);
        });
      }
      tl.addEventListener('click', ev => {
        const r = tl.getBoundingClientRect(), x = (ev.clientX - r.left) * tl.width / r.width;
        const index = (x - 40) / (tl.width - 50) * Math.max(times.length - 1, 1);
        let best = 0;
        frames.forEach((e, k) => { if (Math.abs(e.index - index) < Math.abs(frames[best].index - index)) best = k; });
        stop(); draw(best);
      });

      // Playing: consecutive frames (the motion window) at the scene's own rate, from the
      // media times; between overview frames, a fifteenth of a second.
      let timer = null;
      function delay(k) {
        const a = frames[k], b = frames[(k + 1) % frames.length];
        return b.index === a.index + 1 ? Math.min(1000, Math.max(4, (b.time - a.time) * 1000)) : 1000 / 15;
      }
      function stop() { if (timer) { clearTimeout(timer); timer = null; } play.textContent = '▶ play'; }
      function tick() { draw((shown + 1) % frames.length); timer = setTimeout(tick, delay(shown)); }
      play.addEventListener('click', () => {
        if (timer) return stop();
        play.textContent = '❚❚ pause';
        timer = setTimeout(tick, delay(shown));
      });
      document.getElementById('player-prev').addEventListener('click', () => { stop(); draw(Math.max(0, shown - 1)); });
      document.getElementById('player-next').addEventListener('click', () => { stop(); draw(Math.min(frames.length - 1, shown + 1)); });
      scrub.addEventListener('input', () => { stop(); draw(+scrub.value); });
      document.addEventListener('keydown', ev => {
        if (ev.key === 'ArrowLeft') { stop(); draw(Math.max(0, shown - 1)); }
        else if (ev.key === 'ArrowRight') { stop(); draw(Math.min(frames.length - 1, shown + 1)); }
        else if (ev.key === ' ') { ev.preventDefault(); play.click(); }
      });
      // For scripts/lib/check-player: the window (recorded frames first..last), a frame's index,
      // and where each item (by id) is at a recorded frame, in pixels.
      window.strataPlayer = {frames: frames.length, show: draw, get shown() { return shown; }, window: win, viewport: meta.viewport,
        index: k => frames[k].index,
        positions: k => { const st = stateAt(k), out = {}; for (const id of st.order) { const q = st.items.get(id); out[id] = [q.x / 64, q.y / 64]; } return out; }};
      // The address opens the page where it points: #frame=N shows the recorded frame nearest
      // run frame N; #play (alone or as #frame=N&play) plays from there. A later change of
      // the address (a link, the back button) moves the page too.
      function fromAddress() {
        const args = new URLSearchParams(location.hash.replace(/^#/, ''));
        const at = args.has('frame') ? Number(args.get('frame')) : NaN;
        let k = win ? win[0] : 0;
        if (Number.isFinite(at)) frames.forEach((e, j) => { if (Math.abs(e.index - at) < Math.abs(frames[k].index - at)) k = j; });
        stop(); draw(k);
        if (args.has('play') || args.has('autoplay')) play.click();
      }
      window.strataPlayer.fromAddress = fromAddress;
      window.addEventListener('hashchange', () => { if (frames.length) fromAddress(); });
      if (frames.length) fromAddress(); else label.textContent = 'no frames were recorded';
    })();
    """#
}
