#!/usr/bin/env node
// Development mock: serves web/dist and the slice of the API contract the portal shell uses.
// Only for developing the browser tests; the real run uses the real API (BASE_URL).
//   node e2e/mock-server.mjs            -> http://127.0.0.1:4173 (PORT overrides)
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export const MOCK_USERS = [
  { id: 1, name: 'Ada Admin', email: 'admin@example.com', password: 'Admin12345', role: 1, role_name: 'Admin', status: 'active', balance: '0.0000', timezone: 'UTC' },
  { id: 2, name: 'Carla Customer', email: 'customer@example.com', password: 'Customer123', role: 2, role_name: 'Customer', status: 'active', balance: '42.5000', timezone: 'America/New_York' },
  { id: 3, name: 'Bob Buyer', email: 'buyer@example.com', password: 'Buyer12345', role: 3, role_name: 'Buyer', status: 'active', balance: '0.0000', timezone: 'Europe/London' },
  { id: 4, name: 'Northwind Leads', email: 'northwind@example.com', password: 'Northwind123', role: 2, role_name: 'Customer', status: 'active', balance: '1250.0000', timezone: 'Asia/Kolkata' },
  { id: 5, name: 'Orbit Media', email: 'orbit@example.com', password: 'Orbit12345', role: 2, role_name: 'Customer', status: 'inactive', balance: '12.3400', timezone: 'Australia/Sydney' }
];

export const MOCK_CREDENTIALS = {
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'Admin12345',
  CUSTOMER_EMAIL: 'customer@example.com',
  CUSTOMER_PASSWORD: 'Customer123',
  CUSTOMER_NAME: 'Carla Customer',
  BUYER_EMAIL: 'buyer@example.com',
  BUYER_PASSWORD: 'Buyer12345'
};

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon'
};

function pad(n) {
  return String(n).padStart(2, '0');
}

function utcWall(d = new Date()) {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function publicUser(u) {
  return { user_id: u.id, role: u.role, role_name: u.role_name, name: u.name, balance: u.balance, timezone: u.timezone, email: u.email, status: u.status };
}

function notificationsFor(userId) {
  const count = userId === 2 ? 23 : userId === 1 ? 4 : 0;
  return Array.from({ length: count }, (_, i) => ({
    id: userId * 1000 + count - i,
    text: `Notification ${count - i}: ${['Low balance warning', 'Campaign paused', 'Number assigned', 'Invoice ready'][i % 4]}`,
    created_at: new Date(Date.now() - i * 3600_000).toISOString(),
    read_at: i < 3 ? null : new Date().toISOString()
  }));
}

export function createMockServer({ distDir = join(here, '..', 'dist') } = {}) {
  const users = MOCK_USERS.map((u) => ({ ...u }));
  const sessions = new Map(); // token -> { userId, impersonatorId }

  const issue = (userId, impersonatorId = null) => {
    const token = randomBytes(18).toString('hex');
    sessions.set(token, { userId, impersonatorId });
    return token;
  };

  const send = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const ok = (res, data, message = 'OK', status = 200) => send(res, status, { message, data });
  const fail = (res, status, message, errors) => send(res, status, errors ? { message, errors } : { message });

  const readBody = (req) =>
    new Promise((resolve) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        try {
          resolve(raw ? JSON.parse(raw) : {});
        } catch {
          resolve(null);
        }
      });
    });

  const auth = (req) => {
    const header = req.headers.authorization || '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : null;
    const session = token && sessions.get(token);
    if (!session) return null;
    const user = users.find((u) => u.id === session.userId);
    return user ? { token, session, user } : null;
  };

  async function api(req, res, path, query) {
    const m = req.method;
    if (m === 'POST' && path === '/login') {
      const body = (await readBody(req)) || {};
      const user = users.find((u) => u.email === String(body.email || '').toLowerCase());
      if (!user || user.password !== body.password) return fail(res, 401, 'The email or password is incorrect.');
      return ok(res, { token: issue(user.id), user: publicUser(user) }, 'Signed in');
    }
    if (m === 'POST' && path === '/register') {
      const body = (await readBody(req)) || {};
      const errors = {};
      if (!body.name) errors.name = ['The name is required.'];
      if (!body.email) errors.email = ['The email is required.'];
      if (!body.password || body.password.length < 8) errors.password = ['The password must be at least 8 characters.'];
      if (!body.timezone) errors.timezone = ['The timezone is required.'];
      if (Object.keys(errors).length) return fail(res, 422, 'Some fields need attention.', errors);
      if (users.some((u) => u.email === String(body.email).toLowerCase())) return fail(res, 409, 'That email is already registered.', { email: ['That email is already registered.'] });
      const user = { id: users.length + 1, name: body.name, email: String(body.email).toLowerCase(), password: body.password, role: 2, role_name: 'Customer', status: 'active', balance: '0.0000', timezone: body.timezone };
      users.push(user);
      return ok(res, { token: issue(user.id), user: publicUser(user) }, 'Registered', 201);
    }
    if (m === 'GET' && path === '/server-time') return ok(res, { server_time: utcWall(), timezone: 'UTC' });

    const who = auth(req);
    if (!who) return fail(res, 401, 'Your session has ended. Please sign in again.');

    if (m === 'POST' && path === '/logout') {
      sessions.delete(who.token);
      return ok(res, null, 'Signed out');
    }
    let match;
    if (m === 'GET' && (match = path.match(/^\/user\/balance\/(\d+)$/))) {
      const target = users.find((u) => u.id === Number(match[1]));
      if (!target || (who.user.role !== 1 && target.id !== who.user.id)) return fail(res, 404, 'User not found.');
      return ok(res, [{ user_id: target.id, balance: target.balance }]);
    }
    if (m === 'GET' && path === '/notification/notification') {
      const all = notificationsFor(who.user.id);
      const perpage = Math.max(1, Number(query.get('perpage') || 10));
      const page = Math.max(1, Number(query.get('page') || 1));
      const rows = all.slice((page - 1) * perpage, page * perpage);
      const from = rows.length ? (page - 1) * perpage + 1 : null;
      return ok(res, { data: rows, total: all.length, per_page: perpage, current_page: page, last_page: Math.max(1, Math.ceil(all.length / perpage)), from, to: from ? from + rows.length - 1 : null });
    }
    if (m === 'GET' && path === '/notification/unread-count') {
      return ok(res, { unread_notification_count: notificationsFor(who.user.id).filter((n) => !n.read_at).length });
    }
    if (m === 'GET' && path === '/user/details') {
      if (who.user.role !== 1) return fail(res, 403, 'Only an admin can list users.');
      const params = String(query.get('params') || '').toLowerCase();
      const perpage = Math.max(1, Number(query.get('perpage') || 10));
      const page = Math.max(1, Number(query.get('page') || 1));
      const all = users.filter((u) => !params || u.name.toLowerCase().includes(params) || u.email.includes(params));
      const rows = all.slice((page - 1) * perpage, page * perpage).map((u) => ({ id: u.id, name: u.name, email: u.email, role: u.role, role_name: u.role_name, status: u.status, balance: u.balance, timezone: u.timezone }));
      const from = rows.length ? (page - 1) * perpage + 1 : null;
      return ok(res, { data: rows, total: all.length, per_page: perpage, current_page: page, last_page: Math.max(1, Math.ceil(all.length / perpage)), from, to: from ? from + rows.length - 1 : null });
    }
    if (m === 'POST' && (match = path.match(/^\/user\/impersonate\/(\d+)$/))) {
      if (who.user.role !== 1) return fail(res, 403, 'Only an admin can act as another user.');
      const target = users.find((u) => u.id === Number(match[1]));
      if (!target) return fail(res, 404, 'User not found.');
      if (target.role === 1) return fail(res, 403, 'An admin cannot be impersonated.');
      return ok(res, { token: issue(target.id, who.user.id), user: publicUser(target), impersonator_id: who.user.id }, 'Impersonating');
    }
    if (m === 'POST' && path === '/impersonate/return') {
      const body = (await readBody(req)) || {};
      if (!who.session.impersonatorId) return fail(res, 400, 'This session is not an impersonation.');
      if (Number(body.impersonator_id) !== who.session.impersonatorId) return fail(res, 422, 'impersonator_id does not match this session.', { impersonator_id: ['Does not match.'] });
      sessions.delete(who.token);
      const admin = users.find((u) => u.id === who.session.impersonatorId);
      return ok(res, { user: publicUser(admin) }, 'Back to admin');
    }
    if (m === 'POST' && path === '/change-password') {
      const body = (await readBody(req)) || {};
      if (body.current_password !== who.user.password) return fail(res, 422, 'The current password is incorrect.', { current_password: ['The current password is incorrect.'] });
      if (!body.new_password || body.new_password.length < 8) return fail(res, 422, 'The new password is too short.', { new_password: ['At least 8 characters.'] });
      who.user.password = body.new_password;
      return ok(res, null, 'Password changed.');
    }
    if (path === '/profile' && m === 'GET') return ok(res, publicUser(who.user));
    if (path === '/profile' && m === 'PUT') {
      const body = (await readBody(req)) || {};
      if (body.name) who.user.name = String(body.name);
      if (body.timezone) who.user.timezone = String(body.timezone);
      return ok(res, publicUser(who.user), 'Profile saved.');
    }
    return fail(res, 404, `No route for ${m} /api${path}.`);
  }

  function serveStatic(req, res, pathname) {
    const safe = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(distDir, safe);
    if (!file.startsWith(distDir) || !existsSync(file) || statSync(file).isDirectory()) file = join(distDir, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(503, { 'Content-Type': 'text/plain' });
      return res.end('web/dist is missing: run "npm run build" first');
    }
    const type = MIME[extname(file)] || 'application/octet-stream';
    const cache = file.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': cache });
    createReadStream(file).pipe(res);
  }

  return http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      api(req, res, url.pathname.slice(4) || '/', url.searchParams).catch((err) => {
        console.error(err);
        fail(res, 500, 'The mock server failed.');
      });
      return;
    }
    serveStatic(req, res, url.pathname);
  });
}

export function startMockServer({ port = 0, host = '127.0.0.1', distDir } = {}) {
  const server = createMockServer({ distDir });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { url } = await startMockServer({ port: Number(process.env.PORT || 4173) });
  console.log(`mock API + web/dist on ${url}`);
  for (const [k, v] of Object.entries(MOCK_CREDENTIALS)) console.log(`  ${k}=${v}`);
}
