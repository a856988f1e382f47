// The timeline view: not drawn yet (its placeholder text in index.html stays).
export function render() {}
