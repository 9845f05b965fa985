"""What the proposal team reads: the per-RFP response brief (HTML and Markdown)."""
