/* Socket.IO requests with an acknowledgement, as the hall and the room pages make them: a
   failure (an error ack, or no answer in time) shows its message, so callers write only the
   happy path. */

import {t} from "./i18n.js";

/** Returns request(event, payload, onOk, onFail) bound to one socket and one page.
    options: {timeoutMs, stopped() -> bool, clearError(), showError(message),
              moved(path) (optional: the game is played by another server process)}. */
export function requester(socket, options) {
  return function request(event, payload, onOk, onFail) {
    if (options.stopped()) return;
    options.clearError();
    socket.timeout(options.timeoutMs).emit(event, payload, (err, ack) => {
      if (err) ack = {ok: false, error: "timeout", message: t("The server did not answer. Try again.")};
      if (ack && ack.ok) {
        if (onOk) onOk(ack);
        return;
      }
      ack = ack || {ok: false, message: t("Something went wrong.")};
      if (ack.error === "moved" && options.moved) {
        options.moved(ack.path);  // rejoins there; the player repeats the action
        return;
      }
      options.showError(ack.message);
      if (onFail) onFail(ack);
    });
  };
}
