"""nardy: backgammon ("short nardy"), its variants and long nardy, for Python.

    >>> import nardy
    >>> pos = nardy.BACKGAMMON.start()
    >>> [str(play) for play in pos.legal_plays(6, 5)][:2]
    ['24/13', '24/18 13/8']
    >>> nardy.position_id(pos)
    '4HPwATDgc/ABMA'

The rules core (:mod:`nardy.core`) and the notation codecs (:mod:`nardy.notation`) use only
the standard library.
"""

from nardy.core import *  # noqa: F403
from nardy.core import __all__ as _core_all
from nardy.notation import *  # noqa: F403
from nardy.notation import __all__ as _notation_all

__version__ = "0.1.0"
__all__ = [*_core_all, *_notation_all]
