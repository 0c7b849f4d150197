'use strict';
// lib/client.js: framing on its own, then against the real daemon.
// Run: BIDI_LSP=/path/to/bidi-lsp node --test editors/vscode/test/

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { LanguageClient, MessageReader, ResponseError, ErrorCodes, frame } = require('../lib/client');

const DAEMON = process.env.BIDI_LSP || path.resolve(__dirname, '../../../.build/release/bidi-lsp');

/** Resolves with the next notification of {method} (or rejects after 10 s). */
function nextNotification(client, method) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${method} within 10 s`)), 10000);
    const listener = (name, params) => {
      if (name !== method) return;
      clearTimeout(timer);
      client.off('notification', listener);
      resolve(params);
    };
    client.on('notification', listener);
  });
}

async function startClient(encodings = ['utf-16']) {
  const client = new LanguageClient(DAEMON, []);
  await client.start();
  const result = await client.request('initialize', {
    processId: process.pid, rootUri: null, capabilities: { general: { positionEncodings: encodings } },
  });
  client.notify('initialized', {});
  return { client, result };
}

test('MessageReader reads messages fed one byte at a time', () => {
  const messages = [];
  const reader = new MessageReader((m) => messages.push(m), (e) => assert.fail(e.message));
  const bytes = Buffer.concat([frame({ a: 'שלום' }), frame({ b: [1, 2] })]);
  for (let i = 0; i < bytes.length; i++) reader.push(bytes.subarray(i, i + 1));
  assert.deepEqual(messages, [{ a: 'שלום' }, { b: [1, 2] }]);
});

test('MessageReader reads many messages in one chunk, headers in any case', () => {
  const messages = [];
  const reader = new MessageReader((m) => messages.push(m), (e) => assert.fail(e.message));
  const body = Buffer.from('{"x":"مرحبا"}', 'utf8');
  reader.push(Buffer.concat([
    Buffer.from(`content-length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n`),
    body, frame({ y: 2 }),
  ]));
  assert.deepEqual(messages, [{ x: 'مرحبا' }, { y: 2 }]);
});

test('MessageReader reports a bad message and goes on', () => {
  const messages = [];
  const errors = [];
  const reader = new MessageReader((m) => messages.push(m), (e) => errors.push(e.message));
  reader.push(Buffer.from('Content-Length: 3\r\n\r\n{x}'));
  reader.push(Buffer.from('X-Other: 1\r\n\r\n'));
  reader.push(frame({ ok: true }));
  assert.equal(errors.length, 2);
  assert.deepEqual(messages, [{ ok: true }]);
});

test('the daemon initializes with the encoding asked for', async () => {
  for (const [asked, chosen] of [[['utf-16'], 'utf-16'], [['utf-32', 'utf-16'], 'utf-32'], [['utf-8'], 'utf-8']]) {
    const { client, result } = await startClient(asked);
    assert.equal(result.capabilities.positionEncoding, chosen);
    assert.equal(result.serverInfo.name, 'bidi-lsp');
    assert.ok(result.capabilities.experimental.bidi.methods.includes('bidi/insertMarks'));
    const status = await client.stop();
    assert.equal(status.code, 0, 'exit status after shutdown');
  }
});

test('requests, errors and notifications against the daemon', async () => {
  const { client } = await startClient();
  try {
    const uri = 'file:///test/client.txt';
    const published = nextNotification(client, 'textDocument/publishDiagnostics');
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'plaintext', version: 1, text: 'abc \u202exyz\nשלום 😀 world\n' },
    });
    const diagnostics = await published;
    assert.equal(diagnostics.uri, uri);
    assert.equal(diagnostics.version, 1);
    assert.ok(diagnostics.diagnostics.some((d) => d.code === 'bidi.unpaired'));

    const direction = await client.request('bidi/naturalDirection', { textDocument: { uri } });
    assert.deepEqual(direction.paragraphs.map((p) => p.direction), ['ltr', 'rtl', 'rtl']);

    // UTF-16 offsets: the emoji is two units.
    const visual = await client.request('bidi/visualOrder', {
      textDocument: { uri }, range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } },
      include: ['visualText', 'levels'],
    });
    const line = visual.paragraphs[0].lines[0];
    assert.equal(line.end, 'שלום 😀 world'.length);
    assert.equal(line.levels.length, line.end);
    assert.equal(line.visualText, 'world 😀 םולש'); // neutrals between R and L take the paragraph's R

    await assert.rejects(
      client.request('bidi/documentInfo', { textDocument: { uri: 'file:///nope' } }),
      (error) => error instanceof ResponseError && error.code === -32602 && /nope|unknown|not open/i.test(error.message),
    );
    await assert.rejects(client.request('bidi/noSuchMethod', {}), (error) => error.code === ErrorCodes.MethodNotFound);

    // An incremental change, then the daemon's copy.
    client.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 5 }, end: { line: 1, character: 7 } }, text: 'ו' }],
    });
    const info = await client.request('bidi/documentInfo', { textDocument: { uri }, includeText: true });
    assert.equal(info.version, 2);
    assert.equal(info.text, 'abc \u202exyz\nשלום ו world\n');
  } finally {
    await client.stop();
  }
});

test('a cancelled request rejects at once and the connection goes on', async () => {
  const { client } = await startClient();
  try {
    const uri = 'file:///test/big.txt';
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'plaintext', version: 1, text: 'مرحبا hello 123\n'.repeat(20000) },
    });
    const source = { listeners: [], isCancellationRequested: false };
    const token = {
      get isCancellationRequested() { return source.isCancellationRequested; },
      onCancellationRequested: (listener) => {
        source.listeners.push(listener);
        return { dispose: () => {} };
      },
    };
    const slow = client.request('bidi/visualOrder', { textDocument: { uri }, include: ['runs', 'levels'] }, token);
    const cancelledId = client.lastRequestId;
    source.isCancellationRequested = true;
    source.listeners.forEach((listener) => listener());
    await assert.rejects(slow, (error) => error.code === ErrorCodes.RequestCancelled);
    assert.equal(client.pending.has(cancelledId), false);
    // An already-cancelled token never sends.
    await assert.rejects(client.request('bidi/documentInfo', { textDocument: { uri } }, token),
      (error) => error.code === ErrorCodes.RequestCancelled);
    const info = await client.request('bidi/documentInfo', { textDocument: { uri } });
    assert.equal(info.lineCount, 20001);
  } finally {
    await client.stop();
  }
});

test('requests fail cleanly when the daemon is gone', async () => {
  const { client } = await startClient();
  const exited = new Promise((resolve) => client.once('exit', resolve));
  client.notify('exit');
  await exited;
  assert.equal(client.running, false);
  await assert.rejects(client.request('bidi/documentInfo', {}), (error) => error.code === ErrorCodes.ConnectionClosed);
  const status = await client.stop();
  assert.equal(status.code, 1, 'exit without shutdown is status 1');
});

test('a server that cannot start rejects start()', async () => {
  const client = new LanguageClient(path.join(__dirname, 'no-such-daemon'), []);
  await assert.rejects(client.start(), /ENOENT/);
});
