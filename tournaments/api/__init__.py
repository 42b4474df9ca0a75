"""Read-only JSON API (DRF): standings and travellers, public like their pages."""
