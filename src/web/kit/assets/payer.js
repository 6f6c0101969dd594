// Progressive enhancement for the hosted checkout. Every page works without this file: forms
// post and redirect, and payment panels have a "Check payment status" link. With it, panels
// poll the status endpoint and move on by themselves, and payment codes can be copied.

const POLL_MS = 2000;

function copyText(source) {
  const text = 'value' in source ? source.value : source.textContent || '';
  if (navigator.clipboard && window.isSecureContext) {
    return navigator.clipboard.writeText(text);
  }
  // Plain-HTTP deployments have no async clipboard: select the text and use the legacy command.
  if (typeof source.select === 'function') {
    source.select();
  }
  return document.execCommand('copy') ? Promise.resolve() : Promise.reject(new Error('copy refused'));
}

for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.getAttribute('data-copy') || '');
  if (!source) {
    continue;
  }
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener('click', () => {
    copyText(source).then(
      () => {
        button.textContent = button.getAttribute('data-copied') || label;
        setTimeout(() => {
          button.textContent = label;
        }, 2000);
      },
      () => {
        if (typeof source.select === 'function') {
          source.select();
        }
      },
    );
  });
}

// The card fields, sent hidden and disabled while the payer chooses among several methods, are
// shown while Card is chosen, required only then, and emptied when another method is chosen
// (disabled, they are not posted). Without this script, choosing Card leads to the card step.
const cardFields = document.querySelector('fieldset[data-card-on-choice]');
if (cardFields?.form) {
  const form = cardFields.form;
  const inputs = Array.from(cardFields.querySelectorAll('input'));
  const cardChosen = () =>
    form.querySelector('input[name="payment_method_id"][data-method-type="CARD"]:checked') !== null;
  const showCard = (show, moveFocus) => {
    if (show === !cardFields.hidden) {
      return;
    }
    cardFields.hidden = !show;
    cardFields.disabled = !show;
    for (const input of inputs) {
      input.required = show;
      if (show) {
        input.setAttribute('aria-required', 'true');
      } else {
        input.removeAttribute('aria-required');
        input.value = '';
      }
    }
    if (show && moveFocus && inputs[0]) {
      inputs[0].focus();
    }
  };
  // Arrow keys move through a radio group and check each option on the way: the fields appear,
  // and focus stays in the group (the fields come next with Tab). A click or Space on Card, a
  // choice made, takes the payer to the card number.
  let arrowed = false;
  form.addEventListener('keydown', (event) => {
    arrowed = event.key.startsWith('Arrow');
  });
  form.addEventListener('pointerdown', () => {
    arrowed = false;
  });
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === 'payment_method_id') {
      showCard(cardChosen(), !arrowed);
    }
  });
  // Coming back with Card already chosen (a declined card, a refused form): the fields are there at once.
  showCard(cardChosen(), false);
}

// After a refused submission, keyboard and screen-reader users start at the list of problems.
const summary = document.querySelector('[data-test="error-summary"]');
if (summary) {
  summary.focus();
}

const poller = document.querySelector('[data-status-url]');
if (poller) {
  const statusUrl = poller.getAttribute('data-status-url') || '';
  const orderUrl = poller.getAttribute('data-order-url') || '';
  const progressLine = document.querySelector('[data-chain-progress]');
  let busy = false;
  const timer = setInterval(() => {
    if (busy) {
      return;
    }
    busy = true;
    fetch(statusUrl, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then((res) => (res.ok ? res.json() : null))
      .then((body) => {
        if (body && body.final === true) {
          clearInterval(timer);
          // The order page answers a closed order with the 303 to the merchant's page (or shows
          // the result): the target never passes through this script.
          window.location.assign(orderUrl);
          return;
        }
        if (progressLine && body && 'progress' in body) {
          // Null again when a reorg took back all that was seen. Text only: the server's words, never markup.
          const text = body.progress && typeof body.progress.text === 'string' ? body.progress.text : '';
          // A live region announces every change, even to the same words: only real changes are written.
          if (progressLine.textContent !== text) {
            progressLine.textContent = text;
          }
        }
      })
      .catch(() => {
        // Offline for a moment: the next tick tries again.
      })
      .finally(() => {
        busy = false;
      });
  }, POLL_MS);
}
