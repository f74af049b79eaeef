#!/usr/bin/env node
// Benchmark: how long each screen takes from navigation to its content visible, per role, in
// Chromium (playwright-core, /usr/bin/chromium), cold and in-app. Prints a table.
//
//   .venv/bin/python -m bench.pages          # seeds 100,000 calls, serves web/dist, runs this
//   BASE_URL=http://127.0.0.1:8000 PASSWORD=... ADMIN_EMAIL=... CUSTOMER_EMAIL=... BUYER_EMAIL=... \
//     node bench/pages.mjs                   # against a portal already running (web/dist built)
//
// "Content visible": the screen's title is there, and inside the main area no skeleton row, no
// indeterminate progress bar and no five-bar overlay remain (the data is in). Cold: a new browser
// context (empty cache) opening the screen's URL, signed in (token and user stored), measured from
// navigation start. In-app: from the screen before it, a client-side navigation (history push, as
// a link does), measured in the page from the push to the content visible.
// Env: RUNS (in-app rounds, default 5), COLD_RUNS (default 2), ONLY (regex over role/route),
// CHROMIUM_PATH.
import { createRequire } from "node:module";

// playwright-core is the web's dev dependency: resolved from web/.
const { chromium } = createRequire(
  new URL("../web/package.json", import.meta.url),
)("playwright-core");

const BASE = (process.env.BASE_URL || "").replace(/\/$/, "");
if (!BASE) throw new Error("BASE_URL is required");
const RUNS = Number(process.env.RUNS || 5);
const COLD_RUNS = Number(process.env.COLD_RUNS || 2);
const ONLY = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
const TARGET_IN_APP_P95 = 400;
const TARGET_COLD = 1500;

// Every signed-in route of spec §2 a role works with (its menu, the pages linked from them, its own
// profile and password), in the order a person might visit them.
const ROUTES = {
  admin: [
    "dashboard",
    "customer",
    "buyer",
    "manage-trunk",
    "campaign",
    "target",
    "ivr",
    "manage-number",
    "uploadnumber",
    "vendor",
    "block-number",
    "report",
    "live-calls",
    "tariff",
    "rate-card",
    "topup",
    "wallet",
    "invoice",
    "profile",
    "changepassword",
  ],
  customer: [
    "dashboard",
    "block-number",
    "number",
    "buyer",
    "campaign",
    "target",
    "user_ivr",
    "live-calls",
    "report",
    "wallet",
    "invoice",
    "profile",
    "changepassword",
  ],
  buyer: ["buyercdr", "buyer-target", "profile", "changepassword"],
};

/** Run in the page: the time (performance.now()) once the screen's content is visible, else false. */
const contentVisible = () => {
  const main = document.querySelector('[data-testid="main-content"]');
  if (!main || !main.querySelector('[data-testid="page-title"]')) return false;
  if (
    document.querySelector(
      '[data-testid="page-loader"], [data-testid="shell-loading"]',
    )
  )
    return false;
  if (
    main.querySelector(
      '[data-testid="skeleton-row"], [role="progressbar"]:not([aria-valuenow])',
    )
  )
    return false;
  return performance.now();
};

/**
 * @param {string} role
 * @returns {Promise<{ token: string, user: string }>}
 */
async function session(role) {
  const email = process.env[`${role.toUpperCase()}_EMAIL`];
  const answer = await fetch(`${BASE}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: process.env.PASSWORD }),
  });
  if (!answer.ok) throw new Error(`${role}: sign-in failed (${answer.status})`);
  const { data } = await answer.json();
  return { token: data.token, user: JSON.stringify(data.user) };
}

/** @param {number[]} samples @param {number} p */
const pct = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN
  );
};
/** @param {number} ms */
const fmt = (ms) => (Number.isFinite(ms) ? String(Math.round(ms)) : "—");

/**
 * @param {import('playwright-core').Browser} browser
 * @param {{ token: string, user: string }} signedIn
 */
async function signedInContext(browser, signedIn) {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    timezoneId: "UTC",
  });
  await context.addInitScript((s) => {
    localStorage.setItem("token", s.token);
    localStorage.setItem("user", s.user);
  }, signedIn);
  return context;
}

/**
 * Cold: a fresh context (no cache, nothing fetched yet) opening `route`.
 * @param {import('playwright-core').Browser} browser
 * @param {{ token: string, user: string }} signedIn
 * @param {string} route
 */
async function cold(browser, signedIn, route) {
  const context = await signedInContext(browser, signedIn);
  const page = await context.newPage();
  await page.goto(`${BASE}/${route}`, { waitUntil: "commit" });
  const ready = await page.waitForFunction(contentVisible, null, {
    polling: "raf",
    timeout: 30000,
  });
  const ms = Number(await ready.jsonValue());
  await context.close();
  return ms;
}

/**
 * In-app: a client-side navigation to `route` in a page already showing another screen.
 * @param {import('playwright-core').Page} page
 * @param {string} route
 */
async function inApp(page, route) {
  return page.evaluate(
    ([path, visible]) =>
      new Promise((resolve, reject) => {
        const isVisible = new Function(`return (${visible})()`);
        const before = document.querySelector('[data-testid="page-title"]');
        const start = performance.now();
        window.history.pushState({}, "", path);
        window.dispatchEvent(new PopStateEvent("popstate"));
        const check = () => {
          const title = document.querySelector('[data-testid="page-title"]');
          const at = title && title !== before ? isVisible() : false;
          if (at) resolve(at - start);
          else if (performance.now() - start > 30000)
            reject(new Error(`${path}: not visible in 30 s`));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    [`/${route}`, contentVisible.toString()],
  );
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
/** @type {{ role: string, route: string, cold: number[], inApp: number[] }[]} */
const results = [];
try {
  for (const [role, routes] of Object.entries(ROUTES)) {
    const wanted = routes.filter((r) => !ONLY || ONLY.test(`${role}/${r}`));
    if (!wanted.length) continue;
    const signedIn = await session(role);
    const rows = wanted.map((route) => ({
      role,
      route,
      cold: /** @type {number[]} */ ([]),
      inApp: /** @type {number[]} */ ([]),
    }));
    for (let n = 0; n < COLD_RUNS; n += 1)
      for (const row of rows) {
        const ms = await cold(browser, signedIn, row.route);
        row.cold.push(ms);
        console.error(`cold ${role} /${row.route}: ${Math.round(ms)} ms`); // progress
      }
    const context = await signedInContext(browser, signedIn);
    const page = await context.newPage();
    await page.goto(`${BASE}/${wanted[wanted.length - 1]}`);
    await page.waitForFunction(contentVisible, null, {
      polling: "raf",
      timeout: 30000,
    });
    // The first round fetches each screen's code if the shell's prefetch has not: not counted.
    for (let n = 0; n <= RUNS; n += 1) {
      for (const row of rows) {
        const ms = await inApp(page, row.route);
        if (n > 0) row.inApp.push(ms);
      }
    }
    await context.close();
    results.push(...rows);
  }
} finally {
  await browser.close();
}

const header = [
  "role",
  "route",
  "cold p50",
  "cold max",
  "in-app p50",
  "in-app p95",
];
const lines = results.map((r) => [
  r.role,
  `/${r.route}`,
  fmt(pct(r.cold, 0.5)),
  fmt(Math.max(...r.cold)),
  fmt(pct(r.inApp, 0.5)),
  fmt(pct(r.inApp, 0.95)),
]);
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const line of lines) console.log(`| ${line.join(" | ")} |`);
const allInApp = results.flatMap((r) => r.inApp);
const allCold = results.flatMap((r) => r.cold);
const inAppP95 = pct(allInApp, 0.95);
const coldP95 = pct(allCold, 0.95);
console.log(
  `\nall routes and roles (ms): in-app p50 ${fmt(pct(allInApp, 0.5))}, p95 ${fmt(inAppP95)} (target ≤ ${TARGET_IN_APP_P95});` +
    ` cold p50 ${fmt(pct(allCold, 0.5))}, p95 ${fmt(coldP95)}, max ${fmt(Math.max(...allCold))} (target ≤ ${TARGET_COLD})`,
);
