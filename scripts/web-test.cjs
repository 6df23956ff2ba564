// The HUD in a real browser: opens the web demo (served on the loopback address) in headless
// Chromium, waits for the snapshot the page logs to its console after five seconds, checks it,
// and saves a screenshot that must not be blank.
//
//   node scripts/web-test.cjs http://127.0.0.1:8765/ assets/web.png
//
// Needs playwright-core (resolved from PLAYWRIGHT_CORE, a path, or the usual module lookup) and
// Debian's chromium at /usr/bin/chromium. Exits non-zero with the reason on any failure.
"use strict";
const fs = require("fs");
const { chromium } = require(process.env.PLAYWRIGHT_CORE || "playwright-core");

const [url, screenshotPath] = process.argv.slice(2);
const fail = (message) => {
  console.error(`web test failed: ${message}`);
  process.exit(1);
};

(async () => {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      // WebGL through the software rasterizer.
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--ignore-gpu-blocklist",
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const lines = [];
  let snapshot = null;
  page.on("console", (message) => {
    const text = message.text();
    lines.push(text);
    if (text.startsWith("egui-hud snapshot ")) {
      snapshot = JSON.parse(text.slice("egui-hud snapshot ".length));
    }
  });
  page.on("pageerror", (error) => lines.push(`page error: ${error}`));
  await page.goto(url);
  const deadline = Date.now() + 90_000;
  while (snapshot === null && Date.now() < deadline) {
    await page.waitForTimeout(250);
  }
  const webgpu = await page.evaluate(() => "gpu" in navigator);
  const png = await page.screenshot({ path: screenshotPath });
  await browser.close();
  if (snapshot === null) {
    fail(`no snapshot in the console within 90 s; console:\n${lines.join("\n")}`);
  }
  console.log(`snapshot: ${JSON.stringify(snapshot)}`);
  console.log(`navigator.gpu: ${webgpu} (the page renders with WebGL either way)`);
  if (!(snapshot.samples > 0)) fail("no frames sampled");
  if (!(snapshot.frame_ms > 0)) fail("FRAME is not positive");
  if (!(snapshot.fps > 0)) fail("FPS is not positive");
  // The web has no process counters: the rows are hidden (null), not zero.
  if (snapshot.cpu_percent !== null) fail("CPU must be absent on the web");
  if (snapshot.memory_bytes !== null) fail("MEM must be absent on the web");
  if (snapshot.gpu_busy_percent !== null) fail("no GPU use counter on the web");
  // WebGL has no timestamp queries: no GPU time, no GPU passes.
  if (snapshot.gpu_frame_ms !== null || snapshot.gpu_passes.length !== 0) {
    fail("GPU rows without timestamps");
  }
  if (snapshot.refresh_hz !== null) fail("a page cannot know the refresh rate");
  if (!snapshot.cpu_phases.includes("curves")) fail("the page's phase is missing");
  // A blank 1000x700 page compresses to a few kB; the HUD and the curves do not.
  const size = fs.statSync(screenshotPath).size;
  if (png.length < 20_000) fail(`the screenshot looks blank (${size} bytes)`);
  console.log(`screenshot: ${screenshotPath} (${size} bytes)`);
})().catch((error) => fail(error.stack || String(error)));
