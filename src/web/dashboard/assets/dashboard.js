// Progressive enhancement only: every page works without this script.
// Times are rendered in UTC on the server; where JavaScript runs, show them in the reader's zone.
for (const el of document.querySelectorAll('time[datetime]')) {
  const at = new Date(el.getAttribute('datetime'));
  if (!Number.isNaN(at.getTime())) {
    el.textContent = at.toLocaleString(document.documentElement.lang || undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
  }
}
// A button that asks before it acts (refund, revoke, remove): the form has data-confirm.
for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.getAttribute('data-confirm'))) {
      event.preventDefault();
    }
  });
}
