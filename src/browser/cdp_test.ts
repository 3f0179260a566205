import assert from "node:assert/strict";
import { CdpConnection, type CdpSessionSend, type CdpTransport, isEvent } from "./cdp.ts";

/** A transport that answers every command with `result` and records what was sent. */
function echo(result: Record<string, unknown>): { transport: CdpTransport; sent: Array<Record<string, unknown>> } {
  const sent: Array<Record<string, unknown>> = [];
  const transport: CdpTransport = {
    onMessage: () => {},
    onClose: () => {},
    send(message) {
      const msg = JSON.parse(message);
      sent.push(msg);
      queueMicrotask(() => transport.onMessage(JSON.stringify({ id: msg.id, result })));
    },
    close() {
      transport.onClose();
    },
  };
  return { transport, sent };
}

Deno.test("cdp send - a known command's parameters and result are the protocol's types", async () => {
  const { transport, sent } = echo({ body: "hi", base64Encoded: false });
  using cdp = new CdpConnection(transport);
  const res = await cdp.send("Network.getResponseBody", { requestId: "r1" }, "S1");
  // `res.body` is typed `string`: a misspelt field would not compile.
  assert.equal(res.body.toUpperCase(), "HI");
  assert.deepEqual(sent, [{ id: 1, method: "Network.getResponseBody", params: { requestId: "r1" }, sessionId: "S1" }]);
  if (false as boolean) {
    // Checked by `deno check`, never run: each line must stay a type error, or the typing has loosened.
    // @ts-expect-error a misspelt parameter of a known command
    await cdp.send("Network.getResponseBody", { requestID: "r1" });
    // @ts-expect-error a parameter of the wrong type
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseClicked", x: 1, y: 1 });
    // @ts-expect-error a result field the protocol does not have
    (await cdp.send("Network.getResponseBody", { requestId: "r1" })).bodyText;
    const onTab = {} as CdpSessionSend;
    // @ts-expect-error the session-bound form (the page engine's) checks parameters the same way
    await onTab("Page.handleJavaScriptDialog", { accepted: true });
  }
});

Deno.test("cdp send - a command the protocol description lacks takes the untyped form", async () => {
  const { transport } = echo({ answer: 42 });
  using cdp = new CdpConnection(transport);
  const res = await cdp.send<{ answer: number }>("Mapper.notInTheProtocol", { any: "thing" });
  assert.equal(res.answer, 42);
});

Deno.test("cdp events - isEvent narrows a known event's parameters", () => {
  const ev = { method: "Network.dataReceived", params: { requestId: "r", dataLength: 5 }, sessionId: "S1" };
  assert.ok(isEvent(ev, "Network.dataReceived"));
  assert.equal(ev.params.dataLength + 1, 6);
  assert.equal(isEvent(ev, "Network.loadingFailed"), false);
});
