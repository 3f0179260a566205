import assert from "node:assert/strict";
import { redactUrl } from "./redact.ts";

Deno.test("redact url - credential-like parameters lose their values, names and the rest stay", () => {
  assert.equal(
    redactUrl("https://h.test/up?access_token=abc&page=2&X-Amz-Signature=f00;api_key=k#id_token=t&x=1"),
    "https://h.test/up?access_token=REDACTED&page=2&X-Amz-Signature=REDACTED;api_key=REDACTED#id_token=REDACTED&x=1",
  );
  assert.equal(
    redactUrl("https://h.test/?Session=1&code=9&PASSWORD=p&auth=a"),
    "https://h.test/?Session=REDACTED&code=REDACTED&PASSWORD=REDACTED&auth=REDACTED",
  );
  assert.equal(redactUrl("https://h.test/?to%6Ben=x"), "https://h.test/?to%6Ben=REDACTED");
  assert.equal(redactUrl("https://h.test/?q=token&empty_token="), "https://h.test/?q=token&empty_token=");
  assert.equal(redactUrl("https://h.test/path/token=1"), "https://h.test/path/token=1");
});

Deno.test("redact url - a user:password part loses the password, also in text no parser accepts", () => {
  assert.equal(redactUrl("https://ada:s3cret@h.test/x"), "https://ada:REDACTED@h.test/x");
  assert.equal(redactUrl("https://ada@h.test/x"), "https://ada@h.test/x");
  assert.equal(redactUrl("http://u:p w@h/ ?key=1"), "http://u:REDACTED@h/ ?key=REDACTED");
});

Deno.test("redact url - a name is judged by its whole words, never by a fragment of one", () => {
  const redacted = [
    "token",
    "access_token",
    "accessToken",
    "X-Amz-Signature",
    "X-Amz-Security-Token",
    "api_key",
    "apiKey",
    "APIKey",
    "x-api-key",
    "apikey",
    "key",
    "sessionid",
    "JSESSIONID",
    "PHPSESSID",
    "sessionId",
    "session",
    "sig",
    "signature",
    "auth",
    "oauth_token",
    "Authorization",
    "code",
    "auth_code",
    "authCode",
    "verification_code",
    "password",
    "passwd",
    "PASSWORD",
    "pass",
    "client_secret",
    "passcode",
    "id_token",
    "refresh_token",
    "token2",
    "to%6Ben",
    "api.key",
  ];
  const kept = [
    "author",
    "authorId",
    "author-name",
    "authored",
    "keyword",
    "keywords",

    "zipcode",
    "zip_code",
    "promoCode",
    "country_code",
    "passenger",
    "signal",
    "signup",
    "design",
    "monkey",
    "hotkeys",
    "sessions2x",
    "q",
    "page",
    "tokenizer",
    "codec",
    "encoding",
  ];
  for (const name of redacted) {
    assert.equal(redactUrl(`https://h.test/?${name}=v&x=1`), `https://h.test/?${name}=REDACTED&x=1`, name);
  }
  for (const name of kept) {
    assert.equal(redactUrl(`https://h.test/?${name}=v&x=1`), `https://h.test/?${name}=v&x=1`, name);
  }
});
