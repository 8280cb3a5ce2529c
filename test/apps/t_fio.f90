! romio-xt Fortran test: MPI_DOUBLE_PRECISION reductions and MPI-IO, both
! collective and independent, through "use mpi".  Built with our mpif90 and
! with Debian's mpif90.mpich (run on romio-xt through LD_LIBRARY_PATH).
!
!   t_fio FILE
!
! Every rank owns N doubles with values rank*1e6 + i.  The file holds:
!   region 1: collective, interleaved pieces of 3 doubles (vector file view,
!             MPI_File_write_all) -- noncontiguous per rank
!   region 2: independent, the same interleaved view at a later displacement
!             (MPI_File_write, per-rank noncontiguous)
!   region 3: independent, one contiguous block per rank (MPI_File_write_at)
! It reads everything back collectively and independently and checks it,
! reduces the per-rank maxima with MPI_MAX on MPI_DOUBLE_PRECISION (Reduce
! and Allreduce), and rank 0 prints
!   layers=<romio_xt_layers> max=<max> errors=<n>
! Exit status 1 when anything is wrong.
program t_fio
    use mpi
    implicit none
    integer, parameter :: n = 3 * 21846, piece = 3
    integer :: rank, nprocs, ierr, fh, ftype, i, errs
    logical :: flag
    integer :: status(MPI_STATUS_SIZE), info
    integer(kind=MPI_OFFSET_KIND) :: disp2, off3, region
    double precision, allocatable :: buf(:), back(:)
    double precision :: localmax, gmax, amax, expect, derrs, allerrs
    character(len=512) :: fname
    character(len=256) :: layers

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    call get_command_argument(1, fname)
    if (len_trim(fname) == 0) then
        if (rank == 0) print '(a)', 'usage: t_fio FILE'
        call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)

    allocate(buf(n), back(n))
    do i = 1, n
        buf(i) = rank * 1.0d6 + i
    end do
    errs = 0
    region = int(n, MPI_OFFSET_KIND) * nprocs * 8
    disp2 = region
    off3 = 2 * region + int(rank, MPI_OFFSET_KIND) * n * 8

    call MPI_Type_vector(n / piece, piece, piece * nprocs, MPI_DOUBLE_PRECISION, ftype, ierr)
    call MPI_Type_commit(ftype, ierr)

    call MPI_File_open(MPI_COMM_WORLD, fname, MPI_MODE_CREATE + MPI_MODE_RDWR, &
                       MPI_INFO_NULL, fh, ierr)
    call MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL, ierr)
    ! region 1: collective
    call MPI_File_set_view(fh, int(rank * piece * 8, MPI_OFFSET_KIND), &
                           MPI_DOUBLE_PRECISION, ftype, 'native', MPI_INFO_NULL, ierr)
    call MPI_File_write_all(fh, buf, n, MPI_DOUBLE_PRECISION, status, ierr)
    ! region 2: independent, noncontiguous
    call MPI_File_set_view(fh, disp2 + rank * piece * 8, &
                           MPI_DOUBLE_PRECISION, ftype, 'native', MPI_INFO_NULL, ierr)
    call MPI_File_write(fh, buf, n, MPI_DOUBLE_PRECISION, status, ierr)
    ! region 3: independent, contiguous
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', &
                           MPI_INFO_NULL, ierr)
    call MPI_File_write_at(fh, off3, buf, n, MPI_DOUBLE_PRECISION, status, ierr)
    call MPI_File_sync(fh, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_File_sync(fh, ierr)

    ! read back: region 1 collectively, region 2 independently, region 3 both
    call MPI_File_set_view(fh, int(rank * piece * 8, MPI_OFFSET_KIND), &
                           MPI_DOUBLE_PRECISION, ftype, 'native', MPI_INFO_NULL, ierr)
    back = -1
    call MPI_File_read_all(fh, back, n, MPI_DOUBLE_PRECISION, status, ierr)
    call check('collective read of region 1')
    call MPI_File_set_view(fh, disp2 + rank * piece * 8, &
                           MPI_DOUBLE_PRECISION, ftype, 'native', MPI_INFO_NULL, ierr)
    back = -1
    call MPI_File_read(fh, back, n, MPI_DOUBLE_PRECISION, status, ierr)
    call check('independent read of region 2')
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_BYTE, MPI_BYTE, 'native', &
                           MPI_INFO_NULL, ierr)
    back = -1
    call MPI_File_read_at(fh, off3, back, n, MPI_DOUBLE_PRECISION, status, ierr)
    call check('independent read of region 3')
    back = -1
    call MPI_File_read_at_all(fh, off3, back, n, MPI_DOUBLE_PRECISION, status, ierr)
    call check('collective read of region 3')

    layers = 'none'
    call MPI_File_get_info(fh, info, ierr)
    call MPI_Info_get(info, 'romio_xt_layers', len(layers), layers, flag, ierr)
    call MPI_Info_free(info, ierr)
    call MPI_File_close(fh, ierr)
    call MPI_Type_free(ftype, ierr)

    ! reductions on MPI_DOUBLE_PRECISION
    localmax = maxval(buf)
    expect = (nprocs - 1) * 1.0d6 + n
    call MPI_Reduce(localmax, gmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
    call MPI_Allreduce(localmax, amax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (amax /= expect) then
        print '(a,i0,a,f14.1,a,f14.1)', 'rank ', rank, ': MPI_Allreduce MPI_MAX gave ', &
            amax, ', expected ', expect
        errs = errs + 1
    end if
    if (rank == 0 .and. gmax /= expect) then
        print '(a,f14.1,a,f14.1)', 'MPI_Reduce MPI_MAX gave ', gmax, ', expected ', expect
        errs = errs + 1
    end if
    ! (summed as a double: one buffer type per MPI routine keeps gfortran's
    ! argument-mismatch checks quiet without -fallow-argument-mismatch)
    derrs = errs
    call MPI_Allreduce(derrs, allerrs, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,a,a,f0.1,a,i0)', 'layers=', trim(layers), ' max=', gmax, &
        ' errors=', nint(allerrs)
    call MPI_Finalize(ierr)
    if (allerrs /= 0) error stop 1

contains

    subroutine check(what)
        character(len=*), intent(in) :: what
        integer :: j, bad
        bad = 0
        do j = 1, n
            if (back(j) /= buf(j)) bad = bad + 1
        end do
        if (bad > 0) then
            print '(a,i0,a,a,a,i0,a)', 'rank ', rank, ': ', what, ': ', bad, ' values differ'
            errs = errs + 1
        end if
    end subroutine check
end program t_fio
