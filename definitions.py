"""What ``dagster dev`` loads (``workspace.yaml``): the code location for this project's settings.

The settings are read here, once, from the project's ``rfp-retrieval.yaml`` (or the file
named by ``RFP_RETRIEVAL_CONFIG``) and ``RFP_RETRIEVAL_*`` variables; the definitions are
built from them by ``code_location.build_definitions``, where the groups, jobs, sensors and
code versions are described. ``rfp-retrieval run`` does not import this module: its launcher
(``launch.py``) builds the definitions for the settings of the command.
"""

from pathlib import Path

from code_location import build_definitions
from rfp_retrieval.settings import load_settings

__all__ = ["PROJECT_DIR", "build_definitions", "defs"]

PROJECT_DIR = Path(__file__).resolve().parent

defs = build_definitions(load_settings(PROJECT_DIR))
