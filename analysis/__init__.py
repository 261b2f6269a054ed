"""What a person uses: the ``biriba`` command line, analyzers and reports."""
