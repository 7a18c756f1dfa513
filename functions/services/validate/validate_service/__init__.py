"""validate: offline validators of identifiers and documents, plus the live EU VIES VAT check."""
