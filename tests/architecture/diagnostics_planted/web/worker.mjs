// One error posted with its code, one without.
self.postMessage({ type: 'load', error: 'x', code: 'not_json' });
self.postMessage({ type: 'load', error: 'the file is empty' });
