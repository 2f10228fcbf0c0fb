// Overlay links: the one credential a URL may carry.
