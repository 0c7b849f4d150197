'use strict';
// A small dependency-free client for a language server over stdio:
// Content-Length framing, requests with ids and cancellation, notifications
// both ways. Node.js built-ins only.

const { spawn } = require('child_process');
const { EventEmitter } = require('events');

/** JSON-RPC error codes used here. */
const ErrorCodes = Object.freeze({
  MethodNotFound: -32601,
  RequestCancelled: -32800,
  ConnectionClosed: -32099,
});

/** An error answer from the server, or a failure to get one. */
class ResponseError extends Error {
  constructor(code, message, data) {
    super(message);
    this.name = 'ResponseError';
    this.code = code;
    this.data = data;
  }
}

const HEADER_END = Buffer.from('\r\n\r\n');
const LENGTH_HEADER = /^content-length\s*:\s*(\d+)\s*$/i;

/**
 * Splits a byte stream into LSP messages. Feed it chunks of any size;
 * it calls onMessage(object) for each complete message and
 * onError(error) for a message it cannot read.
 */
class MessageReader {
  constructor(onMessage, onError) {
    this.onMessage = onMessage;
    this.onError = onError;
    this.buffer = Buffer.alloc(0);
    this.expected = -1;
  }

  push(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.expected < 0) {
        const end = this.buffer.indexOf(HEADER_END);
        if (end < 0) return;
        const headers = this.buffer.subarray(0, end).toString('ascii').split('\r\n');
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        const length = headers.map((line) => LENGTH_HEADER.exec(line)).find((match) => match);
        if (!length) {
          this.onError(new Error(`a message without Content-Length: ${JSON.stringify(headers)}`));
          continue;
        }
        this.expected = Number(length[1]);
      }
      if (this.buffer.length < this.expected) return;
      const body = this.buffer.subarray(0, this.expected).toString('utf8');
      this.buffer = this.buffer.subarray(this.expected);
      this.expected = -1;
      let message;
      try {
        message = JSON.parse(body);
      } catch (error) {
        this.onError(new Error(`a message that is not JSON: ${error.message}`));
        continue;
      }
      this.onMessage(message);
    }
  }
}

/** Frames a message object as bytes. */
function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/**
 * A connection to a server process.
 *
 * Events: 'notification' (method, params), 'exit' (code, signal),
 * 'stderr' (text), 'error' (Error, for unreadable messages).
 */
class LanguageClient extends EventEmitter {
  /**
   * @param {string} command the server program
   * @param {string[]} args its arguments
   * @param {{trace?: (direction: string, message: object) => void, env?: object}} options
   */
  constructor(command, args = [], options = {}) {
    super();
    this.command = command;
    this.args = args;
    this.trace = options.trace || null;
    this.env = options.env;
    this.nextId = 1;
    this.pending = new Map();
    this.notificationHandlers = new Map();
    this.requestHandlers = new Map();
    this.process = null;
    this.exited = null;
  }

  /** Starts the process. Rejects if it cannot be spawned. */
  start() {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, this.args, { stdio: ['pipe', 'pipe', 'pipe'], env: this.env });
      this.process = child;
      const reader = new MessageReader(
        (message) => this.handleMessage(message),
        (error) => this.emit('error', error),
      );
      child.stdout.on('data', (chunk) => reader.push(chunk));
      child.stderr.on('data', (chunk) => this.emit('stderr', chunk.toString('utf8')));
      child.stdin.on('error', () => {}); // reported by 'exit'
      this.exited = new Promise((resolveExit) => {
        child.on('exit', (code, signal) => {
          this.process = null;
          const error = new ResponseError(ErrorCodes.ConnectionClosed, `the server exited (${signal || code})`);
          for (const { reject: rejectPending } of this.pending.values()) rejectPending(error);
          this.pending.clear();
          this.emit('exit', code, signal);
          resolveExit({ code, signal });
        });
      });
      child.on('error', (error) => {
        this.process = null;
        reject(error);
      });
      child.on('spawn', () => resolve());
    });
  }

  /** Whether the process runs. */
  get running() {
    return this.process !== null;
  }

  send(message) {
    if (!this.process) throw new ResponseError(ErrorCodes.ConnectionClosed, 'the server is not running');
    if (this.trace) this.trace('send', message);
    this.process.stdin.write(frame(message));
  }

  /**
   * Sends a request; resolves with its result, rejects with a
   * ResponseError. A cancellation token ({isCancellationRequested,
   * onCancellationRequested}) sends $/cancelRequest and rejects at once
   * with RequestCancelled.
   */
  request(method, params, token) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (token && token.isCancellationRequested) {
        reject(new ResponseError(ErrorCodes.RequestCancelled, `${method} was cancelled`));
        return;
      }
      this.pending.set(id, { resolve, reject, method });
      try {
        this.send({ jsonrpc: '2.0', id, method, params });
      } catch (error) {
        this.pending.delete(id);
        reject(error);
        return;
      }
      if (token && token.onCancellationRequested) {
        const subscription = token.onCancellationRequested(() => this.cancel(id));
        const dispose = () => subscription && subscription.dispose && subscription.dispose();
        this.pending.get(id).dispose = dispose;
      }
    });
  }

  /** Cancels the request {id}: tells the server, and rejects it now. */
  cancel(id) {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (pending.dispose) pending.dispose();
    try {
      this.notify('$/cancelRequest', { id });
    } catch (error) {
      // The server is gone; the rejection below says enough.
    }
    pending.reject(new ResponseError(ErrorCodes.RequestCancelled, `${pending.method} was cancelled`));
  }

  /** The id the next request will get (for tests of cancellation). */
  get lastRequestId() {
    return this.nextId - 1;
  }

  notify(method, params) {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Handles the server's notifications of {method}. */
  onNotification(method, handler) {
    this.notificationHandlers.set(method, handler);
  }

  /** Answers the server's requests of {method} with handler(params)'s value. */
  onRequest(method, handler) {
    this.requestHandlers.set(method, handler);
  }

  handleMessage(message) {
    if (this.trace) this.trace('receive', message);
    if (message.method === undefined && message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return; // cancelled, or unknown
      this.pending.delete(message.id);
      if (pending.dispose) pending.dispose();
      if (message.error) {
        pending.reject(new ResponseError(message.error.code, message.error.message, message.error.data));
      } else {
        pending.resolve(message.result === undefined ? null : message.result);
      }
    } else if (message.method !== undefined && message.id !== undefined) {
      this.answerRequest(message);
    } else if (message.method !== undefined) {
      const handler = this.notificationHandlers.get(message.method);
      if (handler) handler(message.params);
      this.emit('notification', message.method, message.params);
    }
  }

  async answerRequest(message) {
    const handler = this.requestHandlers.get(message.method);
    try {
      if (!handler) throw new ResponseError(ErrorCodes.MethodNotFound, `${message.method} is not supported`);
      const result = await handler(message.params);
      this.send({ jsonrpc: '2.0', id: message.id, result: result === undefined ? null : result });
    } catch (error) {
      const code = error instanceof ResponseError ? error.code : -32603;
      if (this.running) this.send({ jsonrpc: '2.0', id: message.id, error: { code, message: String(error.message) } });
    }
  }

  /**
   * Stops the server the LSP way (shutdown, exit), and kills it if it
   * has not exited after {timeout} ms. Resolves with its exit status.
   */
  async stop(timeout = 2000) {
    if (!this.process) return this.exited ? this.exited : { code: null, signal: null };
    const child = this.process;
    const killer = setTimeout(() => child.kill('SIGKILL'), timeout);
    try {
      await Promise.race([
        this.request('shutdown'),
        new Promise((resolve) => setTimeout(resolve, timeout / 2)),
      ]);
      this.notify('exit');
      child.stdin.end();
    } catch (error) {
      child.kill('SIGTERM');
    }
    const status = await this.exited;
    clearTimeout(killer);
    return status;
  }
}

module.exports = { LanguageClient, MessageReader, ResponseError, ErrorCodes, frame };
