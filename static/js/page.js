/*
 * The shell the hall and the room pages share: element helpers, the page's message lines, and
 * the socket session (connection status, requests with acknowledgements, and the session events
 * that stop a page for good). Socket.IO itself is the classic vendor script loaded before the
 * modules, which defines window.io.
 */

import {requester} from "./ack.js";
import {t} from "./i18n.js";

const ACK_TIMEOUT_MS = 10000;

export const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(text, testid, onClick, className = "small") {
  const node = el("button", className, text);
  node.type = "button";
  if (testid) node.dataset.testid = testid;
  node.addEventListener("click", onClick);
  return node;
}

export function show(node, visible) {
  node.classList.toggle("hidden", !visible);
}

/** Show `items` in `list`, one node each from make(item), keyed by keyOf(item): a node that
    would come out the same is kept, not replaced, and the list is left alone when nothing in
    it changed. Lists redrawn on every update (the hall's, each second under load) replaced
    the link under a pointer between its press and its release, and the click was lost. */
export function renderKeyed(list, items, keyOf, make) {
  const kept = new Map(Array.from(list.children, (node) => [node.dataset.key, node]));
  const nodes = items.map((item) => {
    const fresh = make(item);
    fresh.dataset.key = String(keyOf(item));
    const old = kept.get(fresh.dataset.key);
    return old && old.isEqualNode(fresh) ? old : fresh;
  });
  const same = nodes.length === list.children.length &&
    nodes.every((node, index) => list.children[index] === node);
  if (!same) list.replaceChildren(...nodes);
}

/** True when the vendor script defined io (a blocked or missing file leaves the page inert). */
export function haveSocketIo() {
  return typeof window.io === "function";
}

/** The site's one Socket.IO path: any server process answers on it. */
export const DEFAULT_SOCKET_PATH = "/socket.io";

/** A Socket.IO connection to one namespace of this server. */
export function connect(namespace) {
  return window.io(namespace, {transports: ["websocket"], path: DEFAULT_SOCKET_PATH});
}

/** The page's message lines: the last failed request, the connection's state, and (where the
    page has one) a passing note that clears itself. */
export class Notices {
  constructor({error, connection, notice = null}, noticeMs = 8000) {
    this.error = error;
    this.connection = connection;
    this.notice = notice;
    this.noticeMs = noticeMs;
    this.noticeTimer = null;
  }

  showError(message) {
    this.error.textContent = message || t("Something went wrong.");
    show(this.error, true);
  }

  clearError() {
    show(this.error, false);
    this.error.textContent = "";
  }

  showConnection(message) {
    this.connection.textContent = message || "";
    show(this.connection, Boolean(message));
  }

  /** Adds a control after the connection message, e.g. "Use this tab". */
  addToConnection(node) {
    this.connection.appendChild(document.createTextNode(" "));
    this.connection.appendChild(node);
  }

  showNotice(message) {
    clearTimeout(this.noticeTimer);
    this.notice.textContent = message;
    show(this.notice, true);
    this.noticeTimer = setTimeout(() => show(this.notice, false), this.noticeMs);
  }
}

/**
 * One page's socket session. It shows the connection's state and stops the page for good (no
 * reconnects, no controls that would do nothing) when the server refuses the connection, ends
 * the session, or another tab takes it over.
 *
 * options: {root, controls (a selector under root disabled on stop), replacedText,
 *           refusedText(reason), onConnect(), onDisconnect(), onStop()}; the hooks are optional.
 */
export class PageSession {
  constructor(socket, notices, options) {
    this.socket = socket;
    this.notices = notices;
    this.options = options;
    this.connected = false;
    this.stopped = false;
    this.request = requester(socket, {
      timeoutMs: ACK_TIMEOUT_MS,
      stopped: () => this.stopped,
      clearError: () => notices.clearError(),
      showError: (message) => notices.showError(message),
      moved: (path) => this.moveTo(path),
    });
    this.listen();
  }

  listen() {
    const socket = this.socket;
    socket.on("connect", () => this.onConnect());
    socket.on("disconnect", () => this.onDisconnect());
    socket.on("connect_error", (err) => {
      // The process that played our game is gone: the next try goes to any process, where
      // the game is adopted (docs/protocol.md, "Several processes").
      if (socket.io.opts.path !== DEFAULT_SOCKET_PATH) socket.io.opts.path = DEFAULT_SOCKET_PATH;
      // socket.active is false when the server refused us (e.g. logged out): no retry will come.
      // "unavailable": the server is up but its shared store is not (yet): try again soon.
      if (!socket.active && err.message === "unavailable") {
        setTimeout(() => this.stopped || socket.connect(), 1000);
        this.notices.showConnection(t("Can't reach the server; retrying…"));
        return;
      }
      if (socket.active) this.notices.showConnection(t("Can't reach the server; retrying…"));
      else this.stop(this.options.refusedText(err.message));
    });
    socket.on("session_replaced", () => this.onReplaced());
    socket.on("session_ended", () => this.stop(t("Your session was ended by the server's host.")));
  }

  /** Emits with an acknowledgement and leaves the failures to the caller (see request for the
      usual way, which shows them). */
  emitWithAck(event, payload, callback) {
    this.socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, callback);
  }

  onConnect() {
    this.connected = true;
    this.notices.showConnection("");
    this.options.onConnect?.();
  }

  onDisconnect() {
    this.connected = false;
    this.options.onDisconnect?.();
    if (!this.stopped) this.notices.showConnection(t("Connection lost; reconnecting…"));
  }

  onReplaced() {
    this.stop(this.options.replacedText);
    this.notices.addToConnection(button(t("Use this tab"), "use-this-tab", () => window.location.reload()));
  }

  stop(message) {
    this.stopped = true;
    this.connected = false;
    this.socket.disconnect();
    this.notices.showConnection(message);
    this.options.onStop?.();
    for (const control of this.options.root.querySelectorAll(this.options.controls)) control.disabled = true;
  }

  /** Reconnects every namespace of this page on another Socket.IO path: the one of the
      server process that plays our game (a `moved` answer). */
  moveTo(path) {
    const manager = this.socket.io;
    manager.opts.path = path;
    // Soon, not after the usual back-off: this is a hand-over, not an outage.
    manager.reconnectionDelay(100);
    manager.reconnectionDelayMax(2000);
    manager.engine.close();
  }

  /** Leaves for another page (a new game): from now on this one sends nothing. */
  leave(url) {
    this.stopped = true;
    window.location.assign(url);
  }
}
