// The core's WebAssembly module as the workers start it: compiled once by the loading
// worker (worker.mjs), which keeps the WebAssembly.Module to post to the part worker
// (part-worker.mjs), and each worker's instance of it made from that module.
import createSollens from './sollens.mjs';
import { requireWasmSimd } from './wasm-features.mjs';

const WASM_URL = new URL('./sollens.wasm', import.meta.url);

export async function compileModule() {
  requireWasmSimd();
  try {
    return await WebAssembly.compileStreaming(fetch(WASM_URL, { credentials: 'same-origin' }));
  } catch {
    // a host that serves it without application/wasm
    const response = await fetch(WASM_URL, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`sollens.wasm could not be fetched (HTTP ${response.status})`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

// The module's runtime over an instance of `module`; rejects where it cannot start.
export function instantiate(module) {
  return new Promise((resolve, reject) => {
    createSollens({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

// A core status ({code, message}) that says it failed.
export const failed = (status) => status.code !== 'ok';
