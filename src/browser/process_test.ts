import assert from "node:assert/strict";
import { holdsSocket, loopbackListeners, pidAlive, processStartTime } from "./process.ts";

Deno.test({
  name: "processStartTime - names one process: stable while it runs, later for a later process, none once it ended",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const own = processStartTime(Deno.pid);
    assert.ok(own !== undefined && Number.isSafeInteger(own) && own >= 0, String(own));
    assert.equal(processStartTime(Deno.pid), own);
    const child = new Deno.Command("sleep", { args: ["60"], stdin: "null", stdout: "null", stderr: "null" }).spawn();
    const started = processStartTime(child.pid);
    assert.ok(started !== undefined && started >= own, `${started} < ${own}`);
    // Ticks after boot (100 a second on Linux): a process started just now started at about the uptime.
    const uptime = Number((await Deno.readTextFile("/proc/uptime")).split(" ")[0]);
    assert.ok(Math.abs(started / 100 - uptime) < 5, `${started} ticks, uptime ${uptime} s`);
    child.kill("SIGKILL");
    await child.status;
    assert.equal(processStartTime(child.pid), undefined);
    assert.equal(pidAlive(child.pid), false);
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.equal(processStartTime(bad), undefined, String(bad));
  },
});

Deno.test({
  name: "loopbackListeners, holdsSocket - the listener of a loopback port is found and held by its process only",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    const inodes = loopbackListeners(port);
    assert.equal(inodes?.size, 1);
    assert.equal(holdsSocket(Deno.pid, inodes!), true);
    const child = new Deno.Command("sleep", { args: ["60"], stdin: "null", stdout: "null", stderr: "null" }).spawn();
    try {
      assert.equal(holdsSocket(child.pid, inodes!), false);
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
    assert.equal(holdsSocket(child.pid, inodes!), false, "a process that is gone holds nothing");
    // Another address on the same port (not where 127.0.0.1 connects) is not counted.
    using other = Deno.listen({ hostname: "127.0.0.2", port });
    assert.equal(loopbackListeners(port)?.size, 1);
    other.close();
    listener.close();
    assert.equal(loopbackListeners(port)?.size, 0);
    // A listener on every address takes connections to 127.0.0.1 too.
    using any = Deno.listen({ hostname: "0.0.0.0", port });
    assert.equal(holdsSocket(Deno.pid, loopbackListeners(port)!), true);
    any.close();
  },
});
