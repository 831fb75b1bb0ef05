// Renders the Marketplace / Open VSX icon: media/icon.svg (the switchboard of media/mcp.svg, in colour) to
// media/icon.png, 128×128 with a transparent corner. The PNG is committed (an asset, not a build output: vsce and the
// registries take only PNG); run this again after changing the SVG:
//
//   node scripts/make-icon.mjs     (Chromium: MCP_SWITCHBOARD_CHROMIUM, else /usr/bin/chromium, else Playwright's own)
//
// Headless Chromium (driven by playwright-core, a dev dependency) draws the SVG exactly as a browser shows it (gradients, curves, anti-aliasing), which
// ImageMagick's built-in SVG renderer does not always do.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = new URL('..', import.meta.url).pathname;
const source = join(root, 'media', 'icon.svg');
const target = join(root, 'media', 'icon.png');
const SIZE = 128;

const executablePath =
	process.env.MCP_SWITCHBOARD_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
	const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
	await page.goto(pathToFileURL(source).href);
	writeFileSync(target, await page.screenshot({ omitBackground: true }));
} finally {
	await browser.close();
}

// The PNG header says what was written: width and height are the IHDR chunk's first two 32-bit fields.
const png = readFileSync(target);
const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
if (width !== SIZE || height !== SIZE)
	throw new Error(`make-icon: ${target} is ${width}×${height}, not ${SIZE}×${SIZE}`);
console.log(`make-icon: ${target} (${width}×${height}, ${png.length} bytes)`);
