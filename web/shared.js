// Runs a Go WebAssembly module on a shared memory, so that the engine's
// kernels can run in other threads over the same bytes (issue 58). Go's
// linker gives its module a memory of its own, which no other thread can
// see; pdnShareMemory rewrites the module so that the memory is imported
// instead, shared, and made here. Go's own code is unchanged; its memory
// index, exports and data segments stay as they are (an imported memory
// takes the index the defined one had). By hand, as no library does it:
// the rewrite reads the sections' headers and copies every other byte.
// The page's worker and the Node runner of the tests (scripts/kernels-exec)
// both use this file.
"use strict";

// pdnShareMemory returns { bytes, memory }: the module with its one
// defined memory made an import ("pdn" "memory"), and that memory, shared,
// of the module's initial pages and at most maxPages. It throws for a
// module it cannot rewrite (none or two memories, one imported already).
globalThis.pdnShareMemory = function (bytes, maxPages) {
  const u8 = new Uint8Array(bytes);
  let p = 0;
  const u32 = () => {
    let r = 0, scale = 1, b;
    do {
      b = u8[p++];
      r += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80);
    return r;
  };
  const leb = (v) => {
    const out = [];
    do {
      let b = v % 128;
      v = Math.floor(v / 128);
      if (v > 0) b |= 0x80;
      out.push(b);
    } while (v > 0);
    return out;
  };
  const vecBytes = (s) => [...leb(s.length), ...new TextEncoder().encode(s)];
  if (u8[0] !== 0 || u8[1] !== 0x61 || u8[2] !== 0x73 || u8[3] !== 0x6d) {
    throw new Error("not a WebAssembly module");
  }
  p = 8;
  const sections = []; // { id, start, end } of each section's contents
  while (p < u8.length) {
    const id = u8[p++];
    const size = u32();
    sections.push({ id, start: p, end: p + size });
    p += size;
  }
  const mem = sections.filter((s) => s.id === 5);
  if (mem.length !== 1) {
    throw new Error("want one memory section, found " + mem.length);
  }
  p = mem[0].start;
  if (u32() !== 1) {
    throw new Error("want one memory");
  }
  const flags = u8[p++];
  if (flags & 2) {
    throw new Error("the memory is shared already");
  }
  const initial = u32();
  if (initial > maxPages) {
    throw new Error("the module's memory starts at " + initial + " pages, over " + maxPages);
  }
  const memImport = [...vecBytes("pdn"), ...vecBytes("memory"), 0x02, 0x03, ...leb(initial), ...leb(maxPages)];
  const imports = sections.find((s) => s.id === 2);
  let importSection = [1, ...memImport];
  if (imports) {
    p = imports.start;
    const n = u32();
    const first = p; // the imports themselves, after their count
    for (let i = 0; i < n; i++) { // skip each import, refusing a memory
      const skip = () => { const len = u32(); p += len; }; // not p += u32(): p is read before the call moves it
      skip(); // module
      skip(); // name
      const kind = u8[p++];
      if (kind === 0x02) {
        throw new Error("the module imports a memory already");
      }
      const limits = () => { const f = u8[p++]; u32(); if (f & 1) u32(); };
      if (kind === 0x00) u32();
      else if (kind === 0x01) { p++; limits(); }
      else if (kind === 0x03) p += 2;
      else if (kind === 0x04) { p++; u32(); }
      else throw new Error("an import of unknown kind " + kind);
    }
    importSection = [...leb(n + 1), ...u8.subarray(first, imports.end), ...memImport];
  }
  // The sections in their order, the import section where the standard
  // places it: after the types (and any custom section before them).
  const chunks = [u8.subarray(0, 8)];
  const header = (id, size) => chunks.push(new Uint8Array([id, ...leb(size)]));
  let placed = false;
  const placeImports = () => {
    header(2, importSection.length);
    chunks.push(new Uint8Array(importSection));
    placed = true;
  };
  for (const s of sections) {
    if (s.id === 5) continue;
    if (!placed && s.id !== 0 && s.id !== 1) {
      placeImports();
      if (s.id === 2) continue;
    }
    header(s.id, s.end - s.start);
    chunks.push(u8.subarray(s.start, s.end));
  }
  if (!placed) placeImports();
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  const memory = new WebAssembly.Memory({ initial, maximum: maxPages, shared: true });
  return { bytes: out, memory };
};

// pdnCopyShared makes the calls of Go's wasm_exec.js that the web platform
// refuses on a shared memory take a copy instead: TextDecoder.decode and
// crypto.getRandomValues both reject views of a SharedArrayBuffer. Call it
// before wasm_exec.js makes its decoder.
globalThis.pdnCopyShared = function () {
  const isShared = (v) => typeof SharedArrayBuffer !== "undefined" && v && v.buffer instanceof SharedArrayBuffer;
  const Decoder = globalThis.TextDecoder;
  globalThis.TextDecoder = class extends Decoder {
    decode(v, options) {
      if (isShared(v)) {
        v = new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();
      }
      return super.decode(v, options);
    }
  };
  const c = globalThis.crypto;
  const fill = c.getRandomValues.bind(c);
  c.getRandomValues = (v) => {
    if (!isShared(v)) {
      return fill(v);
    }
    const copy = new Uint8Array(v.byteLength);
    fill(copy);
    new Uint8Array(v.buffer, v.byteOffset, v.byteLength).set(copy);
    return v;
  };
};
