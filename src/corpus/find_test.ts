import assert from "node:assert/strict";
import { findCorpusDirUp, trustedCorpusDir, type TrustSystem, UntrustedCorpusError, untrustedReason } from "./find.ts";
import { errorText } from "../errors.ts";

const ME = 1000;
const EVE = 1001;

/** A fake file system of directories (and links) with owners and modes: ownership without root. */
function fakeSystem(
  entries: Record<string, { uid: number; gid?: number; mode: number; link?: string }>,
  safeDirs?: string,
): TrustSystem {
  const real = (p: string): string => {
    const e = entries[p];
    if (e === undefined) throw new Deno.errors.NotFound(p);
    return e.link === undefined ? p : real(e.link);
  };
  const info = (p: string): Deno.FileInfo => {
    const e = entries[p];
    if (e === undefined) throw new Deno.errors.NotFound(p);
    return {
      isFile: false,
      isDirectory: e.link === undefined,
      isSymlink: e.link !== undefined,
      uid: e.uid,
      gid: e.gid ?? e.uid,
      mode: e.mode,
    } as Deno.FileInfo;
  };
  return {
    uid: ME,
    gid: ME,
    stat: (p) => info(real(p)),
    lstat: info,
    realPath: real,
    safeDirs,
    userName: (uid) => (uid === EVE ? "eve" : undefined),
  };
}

const home = { "/": { uid: 0, mode: 0o755 }, "/home": { uid: 0, mode: 0o755 }, "/home/me": { uid: ME, mode: 0o755 } };

Deno.test("corpus trust - the user's own corpus in the user's own folder is trusted, a user private group too", () => {
  const sys = fakeSystem({
    ...home,
    "/home/me/p": { uid: ME, mode: 0o775 },
    "/home/me/p/.mapper": { uid: ME, mode: 0o775 },
  });
  assert.equal(untrustedReason("/home/me/p/.mapper", sys), undefined);
  assert.equal(trustedCorpusDir("/home/me/p/.mapper", sys), "/home/me/p/.mapper");
  assert.equal(untrustedReason("/home/me/missing/.mapper", sys), undefined, "nothing to read: nothing to refuse");
});

Deno.test("corpus trust - another user's corpus, one others can write, or one in a folder others control is refused", () => {
  const cases: Array<[string, Record<string, { uid: number; gid?: number; mode: number; link?: string }>, RegExp]> = [
    [
      "owned by eve",
      { "/tmp": { uid: 0, mode: 0o1777 }, "/tmp/.mapper": { uid: EVE, mode: 0o755 } },
      /^it belongs to user "eve" \(uid 1001\), not to you$/,
    ],
    [
      "world-writable",
      { "/tmp": { uid: 0, mode: 0o1777 }, "/tmp/.mapper": { uid: ME, mode: 0o777 } },
      /^other users can write it \(mode 777\)$/,
    ],
    [
      "group of others",
      { "/tmp": { uid: 0, mode: 0o1777 }, "/tmp/.mapper": { uid: ME, gid: 50, mode: 0o775 } },
      /^other users can write it \(mode 775\)$/,
    ],
    ["shared folder, no sticky bit", {
      "/shared": { uid: 0, mode: 0o777 },
      "/shared/.mapper": { uid: ME, mode: 0o755 },
    }, /^other users can write its folder "\/shared" \(mode 777, no sticky bit\)$/],
    [
      "eve's folder",
      { "/home/eve": { uid: EVE, mode: 0o755 }, "/home/eve/.mapper": { uid: ME, mode: 0o755 } },
      /^its folder "\/home\/eve" belongs to user "eve" \(uid 1001\), not to you$/,
    ],
    ["eve's link", {
      ...home,
      "/home/me/.mapper": { uid: EVE, mode: 0o777, link: "/home/me/real" },
      "/home/me/real": { uid: ME, mode: 0o755 },
    }, /^the link "\/home\/me\/\.mapper" to it belongs to user "eve"/],
  ];
  for (const [name, entries, reason] of cases) {
    const sys = fakeSystem({ ...home, ...entries, "/home": { uid: 0, mode: 0o755 } });
    const dir = Object.keys(entries).find((p) => p.endsWith(".mapper"))!;
    assert.match(untrustedReason(dir, sys) ?? "(trusted)", reason, name);
    assert.throws(() => trustedCorpusDir(dir, sys), (err: unknown) => {
      assert.ok(err instanceof UntrustedCorpusError, name);
      const text = errorText(err);
      assert.ok(text.startsWith(`refusing the corpus "${dir}": `), text);
      assert.ok(
        text.includes(`— use a corpus of your own, or if you trust this one, add it to MAPPER_SAFE_DIRECTORIES`),
        text,
      );
      assert.ok(text.includes(`export MAPPER_SAFE_DIRECTORIES=${dir})`), text);
      assert.ok(!text.includes("\n"), text);
      return true;
    });
  }
  // Root may own the folder (/, /tmp with its sticky bit) without that counting against the corpus.
  const sticky = fakeSystem({ ...home, "/tmp": { uid: 0, mode: 0o1777 }, "/tmp/.mapper": { uid: ME, mode: 0o700 } });
  assert.equal(untrustedReason("/tmp/.mapper", sticky), undefined);
});

Deno.test("corpus trust - MAPPER_SAFE_DIRECTORIES trusts the listed corpus (as given or resolved) or every one with *", () => {
  const entries = {
    "/tmp": { uid: 0, mode: 0o1777 },
    "/tmp/.mapper": { uid: EVE, mode: 0o755 },
    "/tmp/l": { uid: ME, mode: 0o777, link: "/tmp/.mapper" },
  };
  for (const safe of ["/tmp/.mapper", "/x:/tmp/.mapper/", "*", "/elsewhere:*"]) {
    assert.equal(untrustedReason("/tmp/.mapper", fakeSystem(entries, safe)), undefined, safe);
  }
  assert.equal(untrustedReason("/tmp/l", fakeSystem(entries, "/tmp/.mapper")), undefined, "through a link to it");
  for (const safe of ["", "tmp/.mapper", "/tmp", "/tmp/.mapper2"]) {
    assert.notEqual(untrustedReason("/tmp/.mapper", fakeSystem(entries, safe)), undefined, safe);
  }
});

Deno.test("corpus trust - without user ids (Windows) nothing is refused", () => {
  const sys = {
    ...fakeSystem({ "/tmp": { uid: 0, mode: 0o777 }, "/tmp/.mapper": { uid: EVE, mode: 0o777 } }),
    uid: null,
  };
  assert.equal(untrustedReason("/tmp/.mapper", sys), undefined);
});

Deno.test("findCorpusDirUp - a .mapper/ another user planted above the working directory is refused, not skipped", async () => {
  // The walk stats the real file system; ownership comes from the fake. A real .mapper/ above a real folder:
  const tmp = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${tmp}/.mapper`);
    await Deno.mkdir(`${tmp}/work`);
    const sys = fakeSystem({ [tmp]: { uid: ME, mode: 0o755 }, [`${tmp}/.mapper`]: { uid: EVE, mode: 0o755 } });
    assert.throws(() => findCorpusDirUp(`${tmp}/work`, undefined, sys), UntrustedCorpusError);
    const mine = fakeSystem({ [tmp]: { uid: ME, mode: 0o755 }, [`${tmp}/.mapper`]: { uid: ME, mode: 0o755 } });
    assert.equal(findCorpusDirUp(`${tmp}/work`, undefined, mine), `${tmp}/.mapper`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
