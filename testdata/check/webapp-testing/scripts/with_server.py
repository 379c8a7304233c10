# Stand-in for anthropics/skills webapp-testing/scripts/with_server.py (not the original).
