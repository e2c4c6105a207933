"""The ``quintet`` command: argument parsing, reports for people and JSON, the English and
Russian phrases.  A thin shell over the library; nothing in the library imports it.
"""
