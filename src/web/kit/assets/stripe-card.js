// The card step of a checkout whose cards go through the merchant's Stripe account: mounts
// Stripe's Payment Element (the card fields are Stripe's, in Stripe's frames: this site never
// receives a card number) and confirms the payment with Stripe.js. Stripe then sends the payer
// back to the return page, where the server asks Stripe what happened. A decline is shown
// beside the fields and the payer can try again with the same payment.
//
// Everything it needs is on the form, as data attributes written by the server: the
// publishable key, the intent's client secret, the return URL, the locale and the appearance.

const form = document.querySelector('form[data-stripe-publishable-key]');
const errorBox = document.getElementById('stripe-card-error');
const payButton = form?.querySelector('button[type="submit"]');

function showError(text) {
  if (errorBox) {
    errorBox.textContent = text || errorBox.getAttribute('data-generic') || '';
    errorBox.hidden = !errorBox.textContent;
  }
}

function start() {
  if (!form || typeof window.Stripe !== 'function') {
    // Stripe.js did not load (blocked, offline): the page says card payment cannot go on here.
    if (form) {
      showError(form.getAttribute('data-unavailable'));
    }
    return;
  }
  let appearance;
  try {
    appearance = JSON.parse(form.getAttribute('data-stripe-appearance') || '{}');
  } catch {
    appearance = undefined;
  }
  const stripe = window.Stripe(form.getAttribute('data-stripe-publishable-key'), {
    locale: form.getAttribute('data-stripe-locale') || 'auto',
  });
  const elements = stripe.elements({
    clientSecret: form.getAttribute('data-stripe-client-secret'),
    appearance,
  });
  const payment = elements.create('payment');
  payment.mount('#payment-element');
  if (payButton) {
    payButton.hidden = false;
  }
  let busy = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) {
      return;
    }
    busy = true;
    if (payButton) {
      payButton.disabled = true;
    }
    showError('');
    stripe
      .confirmPayment({ elements, confirmParams: { return_url: form.getAttribute('data-stripe-return-url') } })
      .then(
        (result) => {
          // Only reached when Stripe did not redirect: the try failed (a decline, a field left
          // wrong). The same payment stays open: the payer corrects it or uses another card.
          if (result?.error) {
            showError(result.error.message);
          }
        },
        () => showError(''),
      )
      .finally(() => {
        busy = false;
        if (payButton) {
          payButton.disabled = false;
        }
      });
  });
}

start();
